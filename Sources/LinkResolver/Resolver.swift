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
        var stage = await unwrapAndMatch(link, request, budget: &budget, trace: &trace)
        var steps = stage.steps
        var timedOut = stage.timedOut
        if !stage.openings.contains(where: { $0.kind == .action }), let redirectFollower,
            let followed = await shortLink(stage.link, follower: redirectFollower, budget: budget)
        {
            // A short link (bit.ly, t.co, …): its final URL goes through the same stages.
            steps += followed.steps
            stage = await unwrapAndMatch(followed.final, request, budget: &budget, trace: &trace)
            steps += stage.steps
            timedOut += stage.timedOut
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

    /// What stages 2–4 gave for one link.
    private struct Stage {
        var link: Link
        var steps: [UnwrapStep]
        var headers: HTTPFields?
        var openings: [Opening]
        var timedOut: [JSONPointer]
    }

    /// Redirect rules, the header lookup when a `headers` rule could apply, and the matcher.
    private func unwrapAndMatch(
        _ link: Link,
        _ request: ResolveRequest,
        budget: inout ResolutionBudget,
        trace: inout ResolutionTrace?
    ) async -> Stage {
        let unwrapped = rules.unwrap(link, budget: &budget, trace: &trace)
        var headers = request.match.headers
        if headers == nil, let fetcher, rules.headerRulesCouldApply(to: unwrapped.link) {
            headers = await Self.headers(of: unwrapped.link, fetcher: fetcher, timeout: budget.timeLeft)
        }
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
            timedOut: unwrapped.timedOut + matched.timedOut
        )
    }

    /// The final URL of a short link and the HTTP steps to it (nil: not a redirect, or it could not be followed).
    private func shortLink(
        _ link: Link,
        follower: RedirectFollower,
        budget: ResolutionBudget
    ) async -> (final: Link, steps: [UnwrapStep])? {
        let scheme = link.text.prefix { $0 != ":" }.lowercased()
        guard scheme == "http" || scheme == "https", !budget.isExpired,
            let followed = try? await follower.resolve(link.text, deadline: budget.deadline),
            followed.finalURL != link.text,
            let final = try? Link(followed.finalURL)
        else { return nil }
        var steps: [UnwrapStep] = []
        var previous = link.text
        for hop in followed.chain.dropFirst() {
            steps.append(UnwrapStep(kind: .httpRedirect, rule: "HEAD", from: previous, to: hop))
            previous = hop
        }
        return (final, steps)
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

    /// The response headers of a HEAD request, in server order (nil when the request fails).
    static func headers(of link: Link, fetcher: any LinkFetching, timeout: Duration) async -> HTTPFields? {
        guard timeout > .zero else { return nil }
        return try? await fetcher.fetch(FetchRequest(url: link.text, method: .head, timeout: timeout)).headers
    }
}

extension OpeningError {
    /// A script's failure as an opening's error.
    init(_ error: ScriptError) {
        self.init(code: error.code.rawValue, message: error.message + (error.line.map { " (script line \($0))" } ?? ""))
    }
}
