import Foundation
import LinkRules
import WebLinks

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
    public func unwrap(_ link: Link, budget: MatchBudget = MatchBudget()) -> (link: Link, steps: [UnwrapStep]) {
        var resolutionBudget = ResolutionBudget(timeLimit: budget.perResolution, limits: budget)
        var trace: ResolutionTrace?
        let unwrapped = unwrap(link, sourceApp: nil, budget: &resolutionBudget, trace: &trace)
        return (unwrapped.link, unwrapped.steps)
    }

    /// What the redirect-rule stage did.
    package struct Unwrapped: Sendable {
        /// The link after the deciding rule (the input when none applied).
        package var link: Link
        /// The step taken, if any.
        package var steps: [UnwrapStep]
        /// Rules whose regex ran out of time.
        package var timedOut: [JSONPointer]
    }

    /// The redirect-rule stage of a resolution, under its budget; with a trace, each rule's verdict is recorded. The
    /// user layer's rules come first; the manifest rules it leaves out for this link (a site, a `when` entry for
    /// links from `sourceApp`) are not tried.
    package func unwrap(
        _ link: Link,
        sourceApp: String?,
        budget: inout ResolutionBudget,
        trace: inout ResolutionTrace?
    ) -> Unwrapped {
        let stage = budget.startRegexStage()
        defer { budget.finish(stage) }
        let current = link.text
        var timedOut: [JSONPointer] = []
        var verdicts: [RedirectTrace] = []
        var decided: (link: Link, step: UnwrapStep)?
        var refusedSteps: [UnwrapStep] = []
        // A rule none of whose required literals occurs in the link cannot match: its regex is not run.
        let candidates = redirectFilter.candidates(for: current, count: redirects.count)
        for (index, compiled) in redirects.enumerated() {
            let pointer = compiled.rule.pointer
            guard decided == nil else {
                if trace != nil {
                    verdicts.append(RedirectTrace(rule: pointer, verdict: .notTried, layer: compiled.layer))
                }
                continue
            }
            if compiled.layer == nil,
                let entry = userLayer?.skipping(redirect: pointer, host: link.host, sourceApp: sourceApp)
            {
                verdicts.append(
                    RedirectTrace(rule: pointer, verdict: .disabled, reason: "left out by the user layer's \(entry)")
                )
                continue
            }
            guard candidates[index] else {
                if trace != nil { verdicts.append(RedirectTrace(rule: pointer, verdict: .noMatch)) }
                continue
            }
            // A redirect pattern comes from the manifest like any other: without a deadline, one catastrophic
            // pattern (the v5 Webex shape takes over a second on a dotted link) would stall every resolution.
            let deadline = stage.deadlineOfRegex()
            guard case .matches(let atStart) = compiled.regex.firstMatchAtStart(of: current, deadline: deadline) else {
                timedOut.append(pointer)
                verdicts.append(RedirectTrace(rule: pointer, verdict: .timedOut, layer: compiled.layer))
                continue
            }
            guard !atStart.isEmpty else {
                verdicts.append(RedirectTrace(rule: pointer, verdict: .noMatch, layer: compiled.layer))
                continue
            }
            let next: Result<String?, Refusal>
            switch compiled.rule.target {
            case .param(let name):
                next =
                    Self.queryValue(named: name, in: current).map { raw in
                        Self.percentDecoded(raw, what: "the value of \"\(name)\"")
                    } ?? .success(nil)
            case .format(let template):
                // The replacement covers every match in the link, as `stringByReplacingMatches` does.
                guard case .matches(let all) = compiled.regex.matches(in: current, deadline: deadline) else {
                    timedOut.append(pointer)
                    verdicts.append(RedirectTrace(rule: pointer, verdict: .timedOut, layer: compiled.layer))
                    continue
                }
                let replaced = compiled.regex.render(template, matches: all, in: current)
                next =
                    URL(string: replaced)?.host == nil
                    ? Self.percentDecoded(replaced, what: "the result") : .success(replaced)
            }
            switch next.flatMap({ Self.nextLink($0, after: current) }) {
            case .success(let nextLink):
                let step = UnwrapStep(
                    kind: .redirectRule,
                    rule: compiled.rule.pattern,
                    location: pointer,
                    from: current,
                    to: nextLink.text,
                    layer: compiled.layer
                )
                decided = (nextLink, step)
                verdicts.append(
                    RedirectTrace(rule: pointer, verdict: .applied, result: nextLink.text, layer: compiled.layer)
                )
            case .failure(let refusal):
                verdicts.append(
                    RedirectTrace(rule: pointer, verdict: .refused, reason: refusal.reason, layer: compiled.layer)
                )
                // A result that was there but unusable is worth a step: the link stays, and the step says why.
                if refusal.isWorthAStep {
                    refusedSteps.append(
                        UnwrapStep(
                            kind: .redirectRule,
                            rule: compiled.rule.pattern,
                            location: pointer,
                            from: current,
                            to: nil,
                            refused: refusal.reason,
                            layer: compiled.layer
                        )
                    )
                }
            }
        }
        if trace != nil { trace?.redirects = verdicts }
        return Unwrapped(
            link: decided?.link ?? link,
            steps: refusedSteps + (decided.map { [$0.step] } ?? []),
            timedOut: timedOut
        )
    }

    /// Why a redirect rule's result is not used.
    private struct Refusal: Error {
        var reason: String
        /// Whether the rule gave something that was refused (an empty result or the link itself is not news).
        var isWorthAStep = true
    }

    /// A redirect rule's result as the next link: empty results, the link itself, unsafe outputs and text the link
    /// parser refuses (not a web link) do not apply, and the next rule is tried.
    private static func nextLink(_ next: String?, after current: String) -> Result<Link, Refusal> {
        guard let next, !next.isEmpty else {
            return .failure(Refusal(reason: "the rule gave no link", isWorthAStep: false))
        }
        guard next != current else {
            return .failure(Refusal(reason: "the rule gave the link itself", isWorthAStep: false))
        }
        if let problem = OutputSafety.problem(with: next) { return .failure(Refusal(reason: problem)) }
        do {
            let link = try Link(next)
            guard link.text != current else {
                return .failure(Refusal(reason: "the rule gave the link itself", isWorthAStep: false))
            }
            return .success(link)
        } catch {
            return .failure(Refusal(reason: "\"\(preview(next))\" is not a usable web link: \(error.message)"))
        }
    }

    /// Percent-decodes a redirect rule's value; an escape that does not decode to UTF-8 (`%FF`, `%zz`) refuses it.
    private static func percentDecoded(_ text: String, what: String) -> Result<String?, Refusal> {
        guard let decoded = text.removingPercentEncoding else {
            return .failure(
                Refusal(
                    reason:
                        "\(what) \"\(preview(text))\" is not valid UTF-8 after percent-decoding (or has a malformed escape)"
                )
            )
        }
        return .success(decoded)
    }

    private static func preview(_ text: String) -> String {
        text.count > 80 ? String(text.prefix(77)) + "…" : text
    }

    /// The value, still percent-encoded, of the first query parameter called `name` (before any fragment).
    package static func queryValue(named name: String, in link: String) -> String? {
        guard let questionMark = link.firstIndex(of: "?") else { return nil }
        var query = link[link.index(after: questionMark)...]
        if let hash = query.firstIndex(of: "#") { query = query[..<hash] }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == name else { continue }
            let raw = String(parts[1])
            return raw
        }
        return nil
    }
}
