import Foundation
import HTTPTypes
import LinkCleaning
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
/// 2. the cleaning stage, when the resolver has a ``cleaner`` and the request ``ResolveRequest/cleansLinks``: tracking
///    fields removed and redirect wrappers unwrapped with ClearURLs' catalog (LinkCleaning), except on sites the
///    user layer leaves alone; again after every HTTP redirect;
/// 3. the static redirect rules (`RuleSet.unwrap`), the user layer's first;
/// 4. a HEAD request for the response headers, when a `headers` rule could apply and none were given;
/// 5. the compiled matcher (`RuleSet.match`), the function that builds every opening;
/// 6. when no action matched, the link's HTTP redirects (short links), followed with HEAD, then stages 2–5 again on
///    the final URL;
/// 7. every script opening, in JavaScriptCore, until the deadline.
///
/// Stages 3 and 5 are the synchronous core `RuleSet.resolve` is made of; a resolver adds the network and the scripts.
/// Everything network-bound goes through one `LinkFetching` fetcher (policy-checked, recordable).
public final class Resolver: Sendable {
    /// The rules.
    public let rules: RuleSet
    /// Runs scripts (nil: script openings are listed with `needsScript` and no URL).
    public let engine: ScriptEngine?
    /// The network (nil: offline; no unwrapping, no header lookups).
    public let fetcher: (any LinkFetching)?
    /// Removes tracking fields and unwraps redirect wrappers before the rules see a link (nil: links are not
    /// cleaned); a request turns it off with ``ResolveRequest/cleansLinks``.
    public let cleaner: LinkCleaner?
    /// The rule set's scripts, compiled once by `engine`.
    private let scripts: CompiledScripts?
    private let redirectFollower: RedirectFollower?

    /// Creates a resolver and compiles the rule set's scripts. Pass a shared `redirectFollower` to keep its cache of
    /// followed short links across resolvers (a server makes one resolver per rule-set generation), and a `cleaner`
    /// (ClearURLs' catalog, LinkCleaning) to clean links first.
    public init(
        rules: RuleSet,
        engine: ScriptEngine?,
        fetcher: (any LinkFetching)?,
        redirectFollower: RedirectFollower? = nil,
        cleaner: LinkCleaner? = nil
    ) {
        self.rules = rules
        self.engine = engine
        self.fetcher = fetcher
        self.cleaner = cleaner
        // With a user layer, the manifest's own scripts too: its tests run without the layer, so a script rule the
        // layer disables must still run for them.
        scripts = engine?.compile(
            rules.userLayer == nil ? rules.scripts : rules.scripts + rules.withoutUserLayer.scripts
        )
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
        await outcome(link, input: input, request).resolution
    }

    /// Resolves a link that has been normalised, as ``resolve(_:input:_:)`` does, and tells whether the
    /// answer depends on the rules and the request alone (``ResolutionOutcome/isReproducible``).
    public func outcome(
        _ link: Link,
        input: String? = nil,
        _ request: ResolveRequest = ResolveRequest()
    ) async -> ResolutionOutcome {
        var budget = ResolutionBudget(timeLimit: request.timeLimit, limits: request.match.budget)
        var trace: ResolutionTrace? = request.trace ? ResolutionTrace() : nil
        var stage = unwrapAndMatch(link, request, headers: request.match.headers, budget: &budget, trace: &trace)
        var steps = stage.steps
        var timedOut = stage.timedOut
        var isReproducible = true
        if let redirectFollower {
            await unwrapOverHTTP(
                &stage,
                request,
                follower: redirectFollower,
                steps: &steps,
                timedOut: &timedOut,
                isReproducible: &isReproducible,
                budget: &budget,
                trace: &trace
            )
        }
        // Moved out of the stage, so that filling in script URLs does not copy every opening.
        var openings = stage.openings
        stage.openings = []
        if request.runsScripts, let engine, let scripts {
            let rendered = await render(
                &openings,
                link: stage.link,
                headers: stage.headers,
                engine: engine,
                scripts: scripts,
                deadline: budget.deadline
            )
            isReproducible = isReproducible && rendered
        }
        let resolution = Resolution(
            input: input ?? link.text,
            unwrapped: stage.link.text,
            steps: steps,
            openings: openings,
            timedOutRules: timedOut,
            trace: trace
        )
        return ResolutionOutcome(
            resolution: resolution,
            isReproducible: isReproducible && timedOut.isEmpty && !stage.cleaningTimedOut
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
        /// Whether a cleaning regex ran out of time (taken as not matching): the answer is not reproducible.
        var cleaningTimedOut = false

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
        var cleaningSteps: [UnwrapStep] = []
        var cleaningTimedOut = false
        let link = clean(link, request, budget: budget, steps: &cleaningSteps, timedOut: &cleaningTimedOut)
        var unwrapped = rules.unwrap(link, sourceApp: request.match.sourceApp, budget: &budget, trace: &trace)
        if unwrapped.link != link {
            // A redirect rule's target is cleaned too, before the matcher sees it.
            var after: [UnwrapStep] = []
            unwrapped.link = clean(unwrapped.link, request, budget: budget, steps: &after, timedOut: &cleaningTimedOut)
            unwrapped.steps += after
        }
        if !cleaningSteps.isEmpty { unwrapped.steps = cleaningSteps + unwrapped.steps }
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
            layerDecided: matched.layerRemovedActions,
            cleaningTimedOut: cleaningTimedOut
        )
    }

    /// The cleaning stage: the link with the catalog's tracking fields removed and redirect wrappers unwrapped,
    /// within what is left of the budget; a site the user layer leaves alone (`skipCleaning`) is not touched. A
    /// cleaning that changed the link, found it blocked or ran out of time adds one `clean` step listing what each
    /// rule did; running out of time is also reported in `timedOut` (the answer is then not reproducible).
    private func clean(
        _ link: Link,
        _ request: ResolveRequest,
        budget: ResolutionBudget,
        steps: inout [UnwrapStep],
        timedOut: inout Bool
    ) -> Link {
        guard request.cleansLinks, let cleaner else { return link }
        let layer = rules.userLayer
        let left = max(.zero, budget.deadline - ContinuousClock.now)
        let options = CleaningOptions(
            allowReferralMarketing: request.allowsReferralMarketing,
            timeLimit: min(left, .milliseconds(250))
        ) { host in layer?.skipsCleaning(host: host) ?? false }
        let result = cleaner.clean(link, options: options)
        timedOut = timedOut || result.timedOut
        guard result.changed || result.blockedBy != nil || result.timedOut else { return link }
        var details = result.steps.map(\.description)
        if result.timedOut {
            details.append("a cleaning rule ran out of time and was taken as not matching")
        }
        if let blockedBy = result.blockedBy {
            details.append(
                "the complete provider \"\(blockedBy)\" blocks this link in ClearURLs; it is listed as it is"
            )
        }
        var step = UnwrapStep(kind: .clean, rule: "ClearURLs", from: link.text, to: result.link)
        step.details = details
        guard result.changed else {
            step.to = nil
            step.refused =
                result.blockedBy.map { "blocked by \($0)" } ?? "nothing removed: a cleaning rule ran out of time"
            steps.append(step)
            return link
        }
        guard let cleaned = try? Link(result.link, maximumLength: request.maximumLinkLength) else {
            step.to = nil
            step.refused = "the cleaned link is not a web link"
            steps.append(step)
            return link
        }
        steps.append(step)
        return cleaned
    }

    /// Asks the link's server, one hop at a time, as Opener unwraps short links: while no action opens the link, a
    /// redirect is followed and the redirect rules and the matcher run again on where it points, so the next server
    /// is asked only when nothing opens the link yet; and when a `headers` rule could apply, the same answer's headers
    /// are matched (one request per link, never the chain again). A hop that fails, loops or runs out of time ends
    /// the unwrapping at the last good link, and a refused step says why.
    ///
    /// A resolution that asks the network, or that the deadline stops before it could, is not reproducible.
    private func unwrapOverHTTP(
        _ stage: inout Stage,
        _ request: ResolveRequest,
        follower: RedirectFollower,
        steps: inout [UnwrapStep],
        timedOut: inout [JSONPointer],
        isReproducible: inout Bool,
        budget: inout ResolutionBudget,
        trace: inout ResolutionTrace?
    ) async {
        var visited: Set<Link> = [stage.link]
        var redirects = 0
        while true {
            let wantsHeaders =
                request.match.headers == nil && stage.headers == nil
                && rules.headerRulesCouldApply(to: stage.link)
            let wantsRedirect = !stage.hasAction
            guard wantsHeaders || wantsRedirect else { return }
            isReproducible = false
            guard !budget.isExpired else { return }
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
            let cleaningTimedOut = stage.cleaningTimedOut
            stage = unwrapAndMatch(next, request, headers: request.match.headers, budget: &budget, trace: &trace)
            stage.cleaningTimedOut = stage.cleaningTimedOut || cleaningTimedOut
            steps += stage.steps
            timedOut += stage.timedOut
        }
    }

    /// Runs every script opening until `deadline`, filling in `result` in place; each gets the input its rule
    /// matched. Returns whether every output is reproducible. Outputs kept from earlier
    /// runs are filled in first, on this task; only the scripts left run, concurrently (measured under
    /// `scripts/loadtest`: a task group per request cost a tenth of the server's time once every output was kept).
    private func render(
        _ result: inout [Opening],
        link: Link,
        headers: HTTPFields?,
        engine: ScriptEngine,
        scripts: CompiledScripts,
        deadline: ContinuousClock.Instant
    ) async -> Bool {
        var pending: [(index: Int, script: CompiledScript, input: String)] = []
        for index in result.indices where result[index].needsScript {
            switch prepare(&result[index], link: link, headers: headers, scripts: scripts) {
            case .some((let compiled, let input)):
                if let kept = engine.keptOutput(of: compiled, input: input) {
                    Self.fill(&result[index], with: kept)
                } else {
                    pending.append((index, compiled, input))
                }
            case nil:
                break
            }
        }
        if pending.isEmpty { return true }
        if pending.count == 1, let only = pending.first {
            let run = await engine.runReporting(only.script, input: only.input, deadline: deadline)
            Self.fill(&result[only.index], with: run.output)
            return run.isReproducible
        }
        return await withTaskGroup(of: (Int, Result<String?, ScriptError>, Bool).self) { group in
            for job in pending {
                group.addTask {
                    let run = await engine.runReporting(job.script, input: job.input, deadline: deadline)
                    return (job.index, run.output, run.isReproducible)
                }
            }
            var isReproducible = true
            for await (index, output, reproducible) in group {
                Self.fill(&result[index], with: output)
                isReproducible = isReproducible && reproducible
            }
            return isReproducible
        }
    }

    /// Runs one script opening's script until `deadline` (the test runner's cases come through here too).
    package func render(
        _ opening: Opening,
        link: Link,
        headers: HTTPFields? = nil,
        deadline: ContinuousClock.Instant
    ) async -> Opening {
        guard let engine, let scripts, opening.needsScript else { return opening }
        var rendered = opening
        guard let (compiled, input) = prepare(&rendered, link: link, headers: headers, scripts: scripts) else {
            return rendered
        }
        Self.fill(&rendered, with: await engine.run(compiled, input: input, deadline: deadline))
        return rendered
    }

    /// Marks a script opening as run and gives its compiled script and input, or fills in why it cannot run.
    private func prepare(
        _ opening: inout Opening,
        link: Link,
        headers: HTTPFields?,
        scripts: CompiledScripts
    ) -> (CompiledScript, String)? {
        guard opening.needsScript, let script = opening.script else { return nil }
        opening.needsScript = false
        switch scripts[script] {
        case .success(let compiled):
            let input =
                script.matchesHeaders
                ? headers.map { link.text + "\n" + RuleSet.compactJSON($0) } ?? link.text : link.text
            return (compiled, input)
        case .failure(let error):
            opening.error = OpeningError(error)
        case nil:
            opening.error = OpeningError(
                code: "E_SCRIPT_UNKNOWN",
                message: "the script is not one of this resolver's rule set"
            )
        }
        return nil
    }

    /// A script's output as the opening's URL or error.
    private static func fill(_ opening: inout Opening, with output: Result<String?, ScriptError>) {
        switch output {
        case .success(let url?):
            // The same rule as for templates: nothing invisible in a URL handed out.
            opening.url = OutputSafety.visible(url)
        case .success(nil):
            opening.error = OpeningError(code: "E_NO_RESULT", message: "the script reported no result")
        case .failure(let error):
            opening.error = OpeningError(error)
        }
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
