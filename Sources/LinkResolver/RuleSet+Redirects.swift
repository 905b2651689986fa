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
    public func applyRedirects(to link: String) -> (url: String, steps: [UnwrapStep]) {
        var current = link
        var steps: [UnwrapStep] = []
        for compiled in redirects {
            guard let match = compiled.regex.firstMatchAtStart(of: current) else { continue }
            let next: String?
            switch compiled.rule.target {
            case .param(let name):
                next = Self.queryValue(named: name, in: current)
            case .format(let template):
                let replaced = compiled.regex.replacingMatches(in: current, with: template)
                next = URL(string: replaced)?.host == nil ? (replaced.removingPercentEncoding ?? replaced) : replaced
                _ = match
            }
            guard let next, !next.isEmpty, OutputSafety.problem(with: next) == nil, next != current else { continue }
            steps.append(UnwrapStep(kind: "redirect-rule", rule: compiled.rule.pattern, from: current, to: next))
            current = next
            break
        }
        return (current, steps)
    }

    /// The percent-decoded value of the first query parameter called `name` (before any fragment); `+` is kept.
    static func queryValue(named name: String, in link: String) -> String? {
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
