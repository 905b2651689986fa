import ArgumentParser
import DevicePrediction
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

    @OptionGroup var options: ResolutionOptions

    @Flag(help: "Also list the actions the prefilter ruled out.")
    var all = false

    @Flag(help: "Print one JSON object: the resolution document with its trace.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Also predict what a tap on the link (and on the final link) opens on this device: a device file.",
            valueName: "file"
        ),
        completion: .file(extensions: ["json"])
    )
    var device: String?

    func run() async throws {
        let state = try device.map(DeviceFile.read)
        let resolver = try await options.resolver(runsScripts: !options.listing.noScripts)
        let request = try options.request(trace: true)
        let resolution: Resolution
        do {
            resolution = try await resolver.resolve(url, request)
        } catch {
            throw CommandFailure(message: "error: \(error.description)")
        }
        let output = CommandOutput.current
        output.printNotices(of: resolution)
        var predictions: [Prediction]?
        if let state {
            predictions = try await DeviceFile.predictions(of: resolution, on: state, network: options.network)
        }
        if json {
            guard let predictions else { return try output.printJSON(resolution) }
            return try output.printJSON(PredictedResolution(resolution: resolution, predictions: predictions))
        }
        output.print(ExplanationText.render(resolution, all: all))
        for prediction in predictions ?? [] {
            output.print("")
            output.print("On the device:")
            for line in PredictionText.lines(of: prediction, indent: "  ") { output.print(line) }
        }
    }
}

/// `explain --device --json`: the resolution document with a `predictions` member, one per link explained.
private struct PredictedResolution: Encodable {
    var resolution: Resolution
    var predictions: [Prediction]

    private enum CodingKeys: String, CodingKey {
        case predictions
    }

    func encode(to encoder: any Encoder) throws {
        try resolution.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(predictions, forKey: .predictions)
    }
}

/// The human-readable form of a traced resolution.
enum ExplanationText {
    static func render(_ resolution: Resolution, all: Bool) -> String {
        var lines = ["Input:     \(OutputSafety.visible(resolution.input))"]
        let trace = resolution.trace ?? ResolutionTrace()
        // Wrappers are decoded first: each one by its catalog entry, or why it was left as it is.
        for step in resolution.steps where step.kind == .wrapper {
            lines.append("Wrapper " + String(step.description.dropFirst("wrapper ".count)))
        }
        // Then cleaning: each removed field and the catalog rule that removed it.
        for step in resolution.steps where step.kind == .clean {
            // The step says `clean ClearURLs: FROM → TO`; "Cleaned by clean ClearURLs" said it twice.
            let text = step.description
            lines.append("Cleaned by " + (text.hasPrefix("clean ") ? String(text.dropFirst(6)) : text))
        }
        for redirect in trace.redirects where redirect.verdict != .noMatch && redirect.verdict != .notTried {
            let outcome = redirect.result.map { "→ \($0)" } ?? redirect.reason.map { "(\($0))" } ?? ""
            let rule = redirect.layer == .user ? "User redirect rule" : "Redirect rule"
            lines.append("\(rule) \(redirect.rule): \(redirect.verdict.rawValue) \(outcome)")
        }
        for step in resolution.steps where [.httpRedirect, .refreshHeader, .metaRefresh].contains(step.kind) {
            lines.append(step.description)
        }
        lines.append("Unwrapped: \(resolution.unwrapped)")
        // A wrapped link: which link browsers open, and that app openings bypass the gateway.
        let bypass = trace.gateway.map { gateway in
            " (opens the inner link: bypasses \(gateway.wrappers.joined(separator: ", ")))"
        }
        if let gateway = trace.gateway {
            let browsers =
                gateway.browsersOpenWrapped
                ? "browsers open the wrapped link \(gateway.wrapped), so its check runs"
                : "browsers open the inner link (openWrapped opens the wrapped one, so the gateway's check runs)"
            let apps =
                gateway.bypassed.isEmpty
                ? "no app opening"
                : "\(gateway.bypassed.count, "app opening") bypass\(gateway.bypassed.count == 1 ? "es" : "") it"
            lines.append("Gateway:   \(gateway.wrappers.joined(separator: " → ")): \(browsers); \(apps)")
        }
        let candidates = trace.actions.filter { $0.verdict != .notCandidate }
        lines.append(
            "Prefilter: \(candidates.count) of \(trace.actions.count, "action") \(candidates.count == 1 ? "is a candidate" : "are candidates")"
        )
        // The user layer's pointers are into its own file: an opening is known by its layer and its rule.
        let openingsByRule = Dictionary(
            resolution.openings.map { (OpeningKey(layer: $0.layer, rule: $0.rule), $0) },
            uniquingKeysWith: { first, _ in first }
        )
        var removedBy: [OpeningKey: LayerDecision] = [:]
        for decision in trace.userLayer ?? [] where decision.effect != .preferred {
            let keys =
                decision.rules.map { OpeningKey(layer: nil, rule: $0) }
                + (decision.layerRules ?? []).map { OpeningKey(layer: .user, rule: $0) }
            for key in keys where removedBy[key] == nil { removedBy[key] = decision }
        }
        for action in trace.actions where action.verdict != .notCandidate || all {
            let literals =
                action.requiredLiterals.map { $0.prefix(6).joined(separator: " | ") + ($0.count > 6 ? " | …" : "") }
                ?? "(always confirmed)"
            lines.append("")
            let layer = action.layer == .user ? " (user layer)" : ""
            lines.append("\(action.rule) \(action.title)\(layer): \(action.verdict.rawValue)")
            lines.append("  regex:    \(action.regex)")
            lines.append("  literals: \(literals)")
            if let range = action.matchRange {
                lines.append("  match:    UTF-16 offset \(range[0]), length \(range[1])")
            }
            for (index, group) in (action.groups ?? []).enumerated() {
                lines.append("  $\(index):       \(group ?? "(did not take part)")")
            }
            for rule in action.openings {
                let key = OpeningKey(layer: action.layer, rule: rule)
                guard let opening = openingsByRule[key] else {
                    if let decision = removedBy[key] {
                        lines.append(
                            "  → \(rule): removed by the user layer's \(decision.entry) (\(decision.effect.rawValue))"
                        )
                    }
                    continue
                }
                let url = opening.url ?? opening.error.map { "(no URL: \($0.message))" } ?? "(script not run)"
                let marker = opening.preferred.map {
                    " (preferred: \($0.by.rawValue) \(OutputSafety.visible($0.reason)))"
                }
                lines.append("  → \(opening.app?.identifier ?? "-"): \(url)\(marker ?? "")\(bypass ?? "")")
            }
        }
        if let files = trace.claims {
            lines.append("")
            lines.append("Claims of \(resolution.unwrapped):")
            for file in files { lines += ClaimsText.lines(of: file, indent: "  ") }
            for opening in resolution.openings where opening.claim != nil {
                lines.append(
                    "  → \(opening.kind.rawValue) \(opening.app?.identifier ?? "-"): \(opening.url ?? "")\(bypass ?? "")"
                )
            }
        }
        if let decisions = trace.userLayer {
            lines.append("")
            lines.append(decisions.isEmpty ? "User layer: nothing to decide for this link" : "User layer:")
            for decision in decisions {
                let all =
                    decision.rules.map(\.description) + (decision.layerRules ?? []).map { "user layer \($0)" }
                    + (decision.claims ?? []).map { "claim \($0)" }
                let rules = all.prefix(8).joined(separator: ", ") + (all.count > 8 ? ", …" : "")
                lines.append("  \(decision.entry) \(decision.effect.rawValue) \(decision.target): \(rules)")
            }
        }
        let browsers = resolution.openings.count { $0.kind == .browser }
        lines.append("")
        lines.append("\(resolution.openings.count, "opening") (\(browsers, "browser")).")
        return lines.joined(separator: "\n")
    }
}

/// An opening's identity in a resolution: the user layer's pointers are into its own file.
private struct OpeningKey: Hashable {
    var layer: RuleLayer?
    var rule: JSONPointer
}
