import Foundation
import LinkRules

/// Why each rule did or did not open a link: the unwrap steps, what the prefilter chose, each regex's match and
/// groups, and the URL each format rendered. What `switchyard explain` prints.
public struct Explanation: Sendable, Codable, Equatable {
    /// One redirect rule's verdict.
    public struct RedirectTrace: Sendable, Codable, Equatable {
        public var rule: String
        public var matchedAtStart: Bool
        public var result: String?
    }

    /// One action's verdict.
    public struct ActionTrace: Sendable, Codable, Equatable {
        public var rule: String
        public var title: String
        public var regex: String
        /// The literals the prefilter looks for (nil: the rule is always confirmed by its regex).
        public var requiredLiterals: [String]?
        /// Whether the prefilter chose the rule for this link.
        public var candidate: Bool
        /// `matched`, `no match`, `not a candidate`, `timed out`, `no allowed app`.
        public var verdict: String
        /// The first match's range in UTF-16 units and its groups (nil entries: the group did not take part).
        public var matchRange: [Int]?
        public var groups: [String?]?
        /// Each format's app and rendered URL (nil while a script must run).
        public var formats: [FormatTrace]
    }

    /// One format's output.
    public struct FormatTrace: Sendable, Codable, Equatable {
        public var app: String
        public var url: String?
        public var needsScript: Bool
    }

    public var input: String
    public var unwrapped: String
    public var redirects: [RedirectTrace]
    public var actions: [ActionTrace]
    public var openings: [Opening]
}

extension RuleSet {
    /// Explains how `link` resolves. Every action is reported, in manifest order.
    public func explain(_ link: String, options: ResolveOptions = ResolveOptions()) -> Explanation {
        var redirectTraces: [Explanation.RedirectTrace] = []
        let (unwrapped, steps) = applyRedirects(to: link, budget: options.budget)
        for compiled in redirects {
            let step = steps.first { $0.rule == compiled.rule.pattern }
            let atStart = compiled.regex.firstMatchAtStart(of: link, deadline: ContinuousClock().now + options.budget.perRegex)
            let matchedAtStart = if case .matches(let found) = atStart { !found.isEmpty } else { false }
            redirectTraces.append(.init(rule: compiled.rule.pointer.description, matchedAtStart: matchedAtStart, result: step?.to))
        }
        let candidates = actionFilter.candidates(for: unwrapped, count: actions.count)
        let literals = actionLiterals
        var traces: [Explanation.ActionTrace] = []
        for (index, compiled) in actions.enumerated() {
            var trace = Explanation.ActionTrace(
                rule: compiled.action.pointer.description, title: compiled.action.title, regex: compiled.action.regex,
                requiredLiterals: literals[index].literals, candidate: candidates[index], verdict: "not a candidate",
                formats: [])
            defer { traces.append(trace) }
            guard candidates[index] else { continue }
            let input = compiled.action.headers ? (options.headers.map { unwrapped + "\n" + Self.compactJSON($0) } ?? unwrapped) : unwrapped
            switch compiled.regex.matches(in: input, deadline: ContinuousClock().now + options.budget.perRegex) {
            case .timedOut, .failed:
                trace.verdict = "timed out"
            case .matches(let matches):
                guard let first = matches.first else {
                    trace.verdict = "no match"
                    continue
                }
                trace.verdict = "matched"
                trace.matchRange = [first.range.location, first.range.length]
                trace.groups = (0..<first.numberOfRanges).map { group in
                    Range(first.range(at: group), in: input).map { String(input[$0]) }
                }
                for format in compiled.formats {
                    guard options.allows(scheme: format.scheme, platform: format.platform) else { continue }
                    switch format.output {
                    case .template(let template):
                        trace.formats.append(.init(app: format.app.identifier, url: compiled.regex.render(template, matches: matches, in: input), needsScript: false))
                    case .script:
                        trace.formats.append(.init(app: format.app.identifier, url: nil, needsScript: true))
                    }
                }
                if trace.formats.isEmpty { trace.verdict = "no allowed app" }
            }
        }
        let resolution = resolve(link, options: options)
        return Explanation(input: link, unwrapped: unwrapped, redirects: redirectTraces, actions: traces, openings: resolution.openings)
    }
}
