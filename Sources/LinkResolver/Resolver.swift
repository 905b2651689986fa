import Foundation
import HTTPTypes
import LinkFetching
import LinkMatching
import LinkRules
import LinkScripts
import WebLinks

/// The one way a link becomes an answer, for every front end: the CLI's `resolve`, `explain`, batch and `test`,
/// every HTTP route, and apps that embed Switchyard.
///
/// ``resolve(_:_:)`` takes the raw text and a ``ResolveRequest`` and runs, under one `ResolutionBudget`:
/// 1. the link normaliser (`Link`): refused text throws `LinkError`;
/// 2. the static redirect rules (`RuleSet.unwrap`);
/// 3. a HEAD request for the response headers, when a `headers` rule could apply and none were given;
/// 4. the compiled matcher (`RuleSet.match`), the function that builds every opening;
/// 5. when no action matched, the link's HTTP redirects (short links), followed with HEAD, then stages 2–4 again on
///    the final URL;
/// 6. every script opening, in JavaScriptCore, until the deadline.
///
/// Stages 2 and 4 are the synchronous core `RuleSet.resolve` is made of; a resolver adds the network and the scripts.
/// Everything network-bound goes through one `LinkFetching` fetcher (policy-checked, recordable).
public final class Resolver: Sendable {
    /// The rules.
    public let rules: RuleSet
    /// Runs scripts (nil: script openings are listed with `needsScript` and no URL).
    public let engine: ScriptEngine?
    /// The network (nil: offline; no unwrapping, no header lookups).
    public let fetcher: (any LinkFetching)?
    /// The rule set's scripts, compiled once by `engine`.
    private let scripts: CompiledScripts?
    private let redirectFollower: RedirectFollower?

    /// Creates a resolver and compiles the rule set's scripts. Pass a shared `redirectFollower` to keep its cache of
    /// followed short links across resolvers (a server makes one resolver per rule-set generation).
    public init(
        rules: RuleSet,
        engine: ScriptEngine?,
        fetcher: (any LinkFetching)?,
        redirectFollower: RedirectFollower? = nil
    ) {
        self.rules = rules
        self.engine = engine
        self.fetcher = fetcher
        scripts = engine?.compile(rules.scripts)
        self.redirectFollower = redirectFollower ?? fetcher.map { RedirectFollower(fetcher: $0) }
    }

    /// Resolves raw text: normalises it (refusals throw), then runs every stage under one deadline.
    public func resolve(
        _ text: String,
        _ request: ResolveRequest = ResolveRequest()
    ) async throws(LinkError) -> Resolution {
        let link = try Link(text, maximumLength: request.maximumLinkLength)
        return await resolve(link, input: text, request)
    }

    /// Resolves a link that has been normalised; `input` is what the caller was given (the link's text by default).
    public func resolve(
        _ link: Link,
        input: String? = nil,
        _ request: ResolveRequest = ResolveRequest()
    ) async -> Resolution {
        var budget = ResolutionBudget(timeLimit: request.timeLimit, limits: request.match.budget)
        var trace: ResolutionTrace? = request.trace ? ResolutionTrace() : nil
        var stage = unwrapAndMatch(link, request, headers: request.match.headers, budget: &budget, trace: &trace)
        var steps = stage.steps
        var timedOut = stage.timedOut
        if let redirectFollower {
            await unwrapOverHTTP(
                &stage,
                request,
                follower: redirectFollower,
                steps: &steps,
                timedOut: &timedOut,
                budget: &budget,
                trace: &trace
            )
        }
        var openings = stage.openings
        if request.runsScripts, let engine, let scripts {
            openings = await render(
                openings,
                link: stage.link,
                headers: stage.headers,
                engine: engine,
                scripts: scripts,
                deadline: budget.deadline
            )
        }
        return Resolution(
            input: input ?? link.text,
            unwrapped: stage.link.text,
            steps: steps,
            openings: openings,
            timedOutRules: timedOut,
            trace: trace
        )
    }

    /// What the redirect rules and the matcher gave for one link.
    private struct Stage {
        var link: Link
        var steps: [UnwrapStep]
        var headers: HTTPFields?
        var openings: [Opening]
        var timedOut: [JSONPointer]
        /// Whether the user layer removed action openings (a site left alone, links from an app kept to browsers).
        var layerDecided = false

        /// Whether the link is decided: an action opens it, or the user layer said no action may.
        var hasAction: Bool { layerDecided || openings.contains { $0.kind == .action } }
    }

    /// Redirect rules, then the matcher with `headers` (given, or from the link's own HTTP answer).
    private func unwrapAndMatch(
        _ link: Link,
        _ request: ResolveRequest,
        headers: HTTPFields?,
        budget: inout ResolutionBudget,
        trace: inout ResolutionTrace?
    ) -> Stage {
        let unwrapped = rules.unwrap(link, sourceApp: request.match.sourceApp, budget: &budget, trace: &trace)
        let matched = rules.match(
            unwrapped.link,
            options: request.matchOptions(headers: headers),
            budget: &budget,
            trace: &trace
        )
        return Stage(
            link: unwrapped.link,
            steps: unwrapped.steps,
            headers: headers,
            openings: matched.openings,
            timedOut: unwrapped.timedOut + matched.timedOut,
            layerDecided: matched.layerRemovedActions
        )
    }

    /// Asks the link's server, one hop at a time, as Opener unwraps short links: while no action opens the link, a
    /// redirect is followed and the redirect rules and the matcher run again on where it points, so the next server
    /// is asked only when nothing opens the link yet; and when a `headers` rule could apply, the same answer's headers
    /// are matched (one request per link, never the chain again). A hop that fails, loops or runs out of time ends
    /// the unwrapping at the last good link, and a refused step says why.
    private func unwrapOverHTTP(
        _ stage: inout Stage,
        _ request: ResolveRequest,
        follower: RedirectFollower,
        steps: inout [UnwrapStep],
        timedOut: inout [JSONPointer],
        budget: inout ResolutionBudget,
        trace: inout ResolutionTrace?
    ) async {
        var visited: Set<Link> = [stage.link]
        var redirects = 0
        while !budget.isExpired {
            let wantsHeaders =
                request.match.headers == nil && stage.headers == nil
                && rules.headerRulesCouldApply(to: stage.link)
            let wantsRedirect = !stage.hasAction
            guard wantsHeaders || wantsRedirect else { return }
            let hop: RedirectFollower.Hop
            do {
                hop = try await follower.hop(stage.link, deadline: budget.deadline)
            } catch {
                if wantsRedirect { steps.append(.refusedHop(from: stage.link, error)) }
                return
            }
            guard let next = hop.location else {
                // The link's own answer: its headers are what `headers` rules match.
                if wantsHeaders {
                    let matched = rules.match(
                        stage.link,
                        options: request.matchOptions(headers: hop.headers),
                        budget: &budget,
                        trace: &trace
                    )
                    stage.openings = matched.openings
                    stage.headers = hop.headers
                    timedOut += matched.timedOut
                }
                return
            }
            guard wantsRedirect else { return }
            guard !visited.contains(next) else {
                steps.append(
                    .refusedHop(from: stage.link, .redirectLoop(back: next, start: visited.first ?? stage.link))
                )
                return
            }
            guard redirects < follower.maxHops else {
                steps.append(
                    .refusedHop(
                        from: stage.link,
                        FetchError(
                            .tooManyRedirects,
                            url: next.text,
                            message: "the link still redirects after \(redirects) hops"
                        )
                    )
                )
                return
            }
            redirects += 1
            visited.insert(next)
            steps.append(
                UnwrapStep(
                    kind: .httpRedirect,
                    rule: "\(hop.method.rawValue) \(hop.status)",
                    from: stage.link.text,
                    to: next.text
                )
            )
            stage = unwrapAndMatch(next, request, headers: request.match.headers, budget: &budget, trace: &trace)
            steps += stage.steps
            timedOut += stage.timedOut
        }
    }

    /// Runs every script opening concurrently until `deadline`; each gets the input its rule matched.
    private func render(
        _ openings: [Opening],
        link: Link,
        headers: HTTPFields?,
        engine: ScriptEngine,
        scripts: CompiledScripts,
        deadline: ContinuousClock.Instant
    ) async -> [Opening] {
        await withTaskGroup(of: (Int, Opening).self) { group in
            for (index, opening) in openings.enumerated() where opening.needsScript {
                group.addTask {
                    (
                        index,
                        await self.render(
                            opening,
                            link: link,
                            headers: headers,
                            engine: engine,
                            scripts: scripts,
                            deadline: deadline
                        )
                    )
                }
            }
            var result = openings
            for await (index, opening) in group { result[index] = opening }
            return result
        }
    }

    /// Runs one script opening's script until `deadline` (the test runner's cases come through here too).
    package func render(
        _ opening: Opening,
        link: Link,
        headers: HTTPFields? = nil,
        deadline: ContinuousClock.Instant
    ) async -> Opening {
        guard let engine, let scripts else { return opening }
        return await render(opening, link: link, headers: headers, engine: engine, scripts: scripts, deadline: deadline)
    }

    private func render(
        _ opening: Opening,
        link: Link,
        headers: HTTPFields?,
        engine: ScriptEngine,
        scripts: CompiledScripts,
        deadline: ContinuousClock.Instant
    ) async -> Opening {
        guard opening.needsScript, let script = opening.script else { return opening }
        var rendered = opening
        rendered.needsScript = false
        switch scripts[script] {
        case .success(let compiled):
            let input =
                script.matchesHeaders
                ? headers.map { link.text + "\n" + RuleSet.compactJSON($0) } ?? link.text : link.text
            switch await engine.run(compiled, input: input, deadline: deadline) {
            case .success(let url?):
                // The same rule as for templates: nothing invisible in a URL handed out.
                rendered.url = OutputSafety.visible(url)
            case .success(nil):
                rendered.error = OpeningError(code: "E_NO_RESULT", message: "the script reported no result")
            case .failure(let error):
                rendered.error = OpeningError(error)
            }
        case .failure(let error):
            rendered.error = OpeningError(error)
        case nil:
            rendered.error = OpeningError(
                code: "E_SCRIPT_UNKNOWN",
                message: "the script is not one of this resolver's rule set"
            )
        }
        return rendered
    }

}

extension OpeningError {
    /// A script's failure as an opening's error.
    init(_ error: ScriptError) {
        self.init(code: error.code.rawValue, message: error.message + (error.line.map { " (script line \($0))" } ?? ""))
    }
}

extension UnwrapStep {
    /// An HTTP hop that could not be taken: the link stays the last good one.
    static func refusedHop(from link: Link, _ error: FetchError) -> UnwrapStep {
        UnwrapStep(
            kind: .httpRedirect,
            rule: "HEAD",
            from: link.text,
            to: nil,
            refused: "\(error.message) [\(error.identifier)]"
        )
    }
}
