import AppChooser
import ArgumentParser
import Foundation
import LinkMatching
import LinkResolver
import LinkRules
import WebLinks

/// `switchyard explain URL`: the same resolution as `resolve`, with why each rule did or did not open the link.
struct ExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract:
            "Resolve a link and show why each rule did or did not open it: unwrap steps, prefilter candidates, matches, groups."
    )

    @Argument(help: "The link to explain.")
    var url: String

    @OptionGroup var manifestOptions: ManifestOptions

    @OptionGroup var choices: ChoicesOptions

    @Flag(help: "Also list the actions the prefilter ruled out.")
    var all = false

    @Flag(help: "Print one JSON object: the resolution document with its trace.")
    var json = false

    @Flag(help: "List script openings without running their scripts.")
    var noScripts = false

    @OptionGroup(
        title: "Network (on by default, as for resolve: scripts, short-link unwrapping and header lookups may fetch)"
    )
    var network: NetworkOptions

    func run() async throws {
        let rules = try await manifestOptions.loadRules(network: network)
        let resolver = try network.resolver(for: rules, runsScripts: !noScripts)
        let store = try choices.open()
        var resolution: Resolution
        do {
            resolution = try await resolver.resolve(url, network.request(runsScripts: !noScripts, trace: true))
        } catch {
            throw CommandFailure(message: "error: \(error.description)")
        }
        store?.applyRememberedSite(to: &resolution, rules: rules, installed: nil)
        let output = CommandOutput.current
        output.printNotices(of: resolution)
        if json {
            try output.printJSON(resolution)
        } else {
            output.print(ExplanationText.render(resolution, all: all))
        }
    }
}

/// The human-readable form of a traced resolution.
enum ExplanationText {
    static func render(_ resolution: Resolution, all: Bool) -> String {
        var lines = ["Input:     \(OutputSafety.visible(resolution.input))"]
        let trace = resolution.trace ?? ResolutionTrace()
        for redirect in trace.redirects where redirect.verdict != .noMatch && redirect.verdict != .notTried {
            let outcome = redirect.result.map { "→ \($0)" } ?? redirect.reason.map { "(\($0))" } ?? ""
            lines.append("Redirect rule \(redirect.rule): \(redirect.verdict.rawValue) \(outcome)")
        }
        for step in resolution.steps where step.kind == .httpRedirect {
            lines.append(step.description)
        }
        lines.append("Unwrapped: \(resolution.unwrapped)")
        let candidates = trace.actions.filter { $0.verdict != .notCandidate }
        lines.append("Prefilter: \(candidates.count) of \(trace.actions.count) actions are candidates")
        let openingsByRule = Dictionary(
            resolution.openings.map { ($0.rule, $0) },
            uniquingKeysWith: { first, _ in first }
        )
        for action in trace.actions where action.verdict != .notCandidate || all {
            let literals =
                action.requiredLiterals.map { $0.prefix(6).joined(separator: " | ") + ($0.count > 6 ? " | …" : "") }
                ?? "(always confirmed)"
            lines.append("")
            lines.append("\(action.rule) \(action.title): \(action.verdict.rawValue)")
            lines.append("  regex:    \(action.regex)")
            lines.append("  literals: \(literals)")
            if let range = action.matchRange {
                lines.append("  match:    UTF-16 offset \(range[0]), length \(range[1])")
            }
            for (index, group) in (action.groups ?? []).enumerated() {
                lines.append("  $\(index):       \(group ?? "(did not take part)")")
            }
            for rule in action.openings {
                guard let opening = openingsByRule[rule] else { continue }
                let url = opening.url ?? opening.error.map { "(no URL: \($0.message))" } ?? "(script not run)"
                let marker = opening.preferred.map {
                    " (preferred: \($0.by.rawValue) \(OutputSafety.visible($0.reason)))"
                }
                lines.append("  → \(opening.app?.identifier ?? "-"): \(url)\(marker ?? "")")
            }
        }
        let browsers = resolution.openings.count { $0.kind == .browser }
        lines.append("")
        lines.append("\(resolution.openings.count) openings (\(browsers) browsers).")
        return lines.joined(separator: "\n")
    }
}
