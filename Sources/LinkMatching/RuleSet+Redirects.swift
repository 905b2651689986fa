import Foundation
import LinkRules

extension RuleSet {
    /// Applies the static redirect rules: the first rule in file order whose regex matches at the start of the link
    /// gives the result; the others are not consulted (the v5 manifest's 65 tests decide this: its Twitter tests
    /// expect a trailing `?` that a later rule would strip, and its Workplace test a `?s=21` that the Twitter rule
    /// would strip).
    ///
    /// `param` takes that query parameter's value, percent-decoded; `format` takes the regex replacement,
    /// percent-decoded only when the result has no host (so an encoded URL captured from a path is decoded, while
    /// an ordinary URL keeps its escapes). A result that is empty or holds control characters is refused and the
    /// next rule is tried. Applying one rule once means a rule that maps a link onto itself cannot loop.
    ///
    /// Each regex runs under `budget`, like the actions' regexes: a rule that runs out of time is skipped.
    public func applyRedirects(to link: String, budget: MatchBudget = MatchBudget()) -> (url: String, steps: [UnwrapStep]) {
        let clock = ContinuousClock()
        let unwrapped = unwrap(link, budget: budget, deadline: clock.now + budget.perResolution)
        return (unwrapped.url, unwrapped.steps)
    }

    /// ``applyRedirects(to:budget:)`` with the resolution's deadline, also giving the rules that ran out of time.
    package func unwrap(_ link: String, budget: MatchBudget, deadline resolutionDeadline: ContinuousClock.Instant)
        -> (url: String, steps: [UnwrapStep], timedOut: [String])
    {
        let clock = ContinuousClock()
        var current = link
        var steps: [UnwrapStep] = []
        var timedOut: [String] = []
        for compiled in redirects {
            // A redirect pattern comes from the manifest like any other: without a deadline, one catastrophic
            // pattern (the v5 Webex shape takes over a second on a dotted link) would stall every resolution.
            let deadline = min(clock.now + budget.perRegex, resolutionDeadline)
            guard case .matches(let atStart) = compiled.regex.firstMatchAtStart(of: current, deadline: deadline) else {
                timedOut.append(compiled.rule.pointer.description)
                continue
            }
            guard !atStart.isEmpty else { continue }
            let next: String?
            switch compiled.rule.target {
            case .param(let name):
                next = Self.queryValue(named: name, in: current)
            case .format(let template):
                // The replacement covers every match in the link, as `stringByReplacingMatches` does.
                guard case .matches(let all) = compiled.regex.matches(in: current, deadline: deadline) else {
                    timedOut.append(compiled.rule.pointer.description)
                    continue
                }
                let replaced = compiled.regex.render(template, matches: all, in: current)
                next = URL(string: replaced)?.host == nil ? (replaced.removingPercentEncoding ?? replaced) : replaced
            }
            guard let next, !next.isEmpty, OutputSafety.problem(with: next) == nil, next != current else { continue }
            steps.append(UnwrapStep(kind: "redirect-rule", rule: compiled.rule.pattern, from: current, to: next))
            current = next
            break
        }
        return (current, steps, timedOut)
    }

    /// The percent-decoded value of the first query parameter called `name` (before any fragment); `+` is kept.
    package static func queryValue(named name: String, in link: String) -> String? {
        guard let questionMark = link.firstIndex(of: "?") else { return nil }
        var query = link[link.index(after: questionMark)...]
        if let hash = query.firstIndex(of: "#") { query = query[..<hash] }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == name else { continue }
            let raw = String(parts[1])
            return raw.removingPercentEncoding ?? raw
        }
        return nil
    }
}
