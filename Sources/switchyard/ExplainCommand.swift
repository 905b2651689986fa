import WebLinks
import ArgumentParser
import Foundation
import LinkMatching
import LinkResolver

/// `switchyard explain URL`: why each rule did or did not open a link.
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Show why each rule did or did not open a link: unwrap steps, prefilter candidates, matches, groups."
    )

    @Argument(help: "The link to explain.")
    var url: String

    @OptionGroup var manifestOptions: ManifestOptions

    @Flag(help: "Also list the actions the prefilter ruled out.")
    var all = false

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() async throws {
        let rules = try manifestOptions.loadRules()
        let link: String
        do {
            link = try LinkInput.normalize(url)
        } catch {
            throw CommandFailure(message: "error: \(error.description)")
        }
        let explanation = rules.explain(link)
        if json {
            try JSONOutput.print(explanation)
            return
        }
        print("Input:     \(url)")
        if link != url { print("Normalised: \(link)") }
        for redirect in explanation.redirects where redirect.matchedAtStart {
            print("Redirect rule \(redirect.rule) matches at the start → \(redirect.result ?? "(refused or not applied: an earlier rule decided)")")
        }
        print("Unwrapped: \(explanation.unwrapped)")
        let candidates = explanation.actions.filter(\.candidate)
        print("Prefilter: \(candidates.count) of \(explanation.actions.count) actions are candidates")
        for trace in explanation.actions where trace.candidate || all {
            let literals = trace.requiredLiterals.map { $0.prefix(6).joined(separator: " | ") + ($0.count > 6 ? " | …" : "") } ?? "(always confirmed)"
            print("\n\(trace.rule) \(trace.title): \(trace.verdict)")
            print("  regex:    \(trace.regex)")
            print("  literals: \(literals)")
            if let range = trace.matchRange { print("  match:    UTF-16 offset \(range[0]), length \(range[1])") }
            for (index, group) in (trace.groups ?? []).enumerated() { print("  $\(index):       \(group ?? "(did not take part)")") }
            for format in trace.formats { print("  → \(format.app): \(format.url ?? "(script must run)")") }
        }
        print("\n\(explanation.openings.count) openings (\(explanation.openings.filter { $0.kind == .browser }.count) browsers).")
    }
}
