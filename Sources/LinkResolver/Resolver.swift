import HTTPTypes
import LinkFetching
import LinkMatching
import LinkResolution
import LinkRules
import Synchronization
import WebLinks

/// The one way a link becomes an answer, for every front end: the CLI's `resolve`, `explain`, batch and `test`,
/// every HTTP route, and apps that embed Switchyard.
///
/// ``resolve(_:_:)`` takes the raw text and a `ResolveRequest` and runs, under one `ResolutionBudget`:
/// 1. the link normaliser (`Link`): refused text throws `LinkError`; then the link wrappers of mail gateways and redirect
///    pages, decoded offline (`RuleSet.wrappers`, LinkWrappers' catalog with the user layer's entries), nested;
/// 2. the cleaning stages (`ResolverStages.cleaning`, such as ClearURLs' catalog in LinkCleaning), unless the
///    request says `ResolveRequest.cleansLinks` false, except on sites the user layer leaves alone; again (with the
///    wrappers) after every redirect rule and every HTTP redirect (`Resolver+Unwrapping.swift`);
/// 3. the static redirect rules (`RuleSet.unwrap`), the user layer's first;
/// 4. a HEAD request for the response headers, when a `headers` rule could apply and none were given;
/// 5. the compiled matcher (`RuleSet.match`), the function that builds every opening;
/// 6. when no action matched, the link's HTTP redirects (short links), followed with HEAD, then stages 2–5 again on
///    the final URL;
/// 7. every script opening, in JavaScriptCore, until the deadline (`Resolver+Scripts.swift`), and meanwhile the
///    opening stages (`ResolverStages.openings`, such as the domain's claims in DomainClaimsStage) on the final link,
///    unless the request says `ResolveRequest.includesClaims` false (`Resolver+Openings.swift`);
/// 8. the decision stages (`ResolverStages.decisions`, such as the choices remembered per site in AppChooser).
///
/// With the document, ``outcome(_:input:_:key:)`` gives the answer's `CacheKey` and `Cacheability`, derived from
/// the rules, each stage and the request: what the HTTP API's `ETag` and `Cache-Control` are made from.
///
/// Stages 3 and 5 are the synchronous core `RuleSet.resolve` is made of; a resolver adds the network, the scripts and
/// the stages. Everything network-bound goes through one `LinkFetching` fetcher (policy-checked, recordable).
public final class Resolver: Sendable {
    /// The rules.
    public let rules: RuleSet
    /// What identifies the rules in a `CacheKey` (a server gives the manifest's SHA-256; by default a name unique to
    /// this resolver in this process, so keys never match across processes unless an identity is given).
    public let rulesIdentity: String
    /// Runs scripts (nil: script openings are listed with `needsScript` and no URL).
    public let engine: ScriptEngine?
    /// The network (nil: offline; no unwrapping, no header lookups).
    public let fetcher: (any LinkFetching)?
    /// The stages it runs besides the rules.
    public let stages: ResolverStages
    /// The rule set's scripts, compiled once by `engine`.
    let scripts: CompiledScripts?
    let redirectFollower: RedirectFollower?
    /// Canonical encodings of the last 256 distinct requests (most front ends send the same few again and again).
    private let encodings = Mutex(LRUStore<ResolveRequest, String>(capacity: 256))

    /// Creates a resolver and compiles the rule set's scripts. Pass a shared `redirectFollower` to keep its cache of
    /// followed short links across resolvers (a server makes one resolver per rule-set generation), the `stages` to
    /// run (cleaning, decisions), and the rules' `identity` when cache keys must agree across processes.
    public init(
        rules: RuleSet,
        engine: ScriptEngine?,
        fetcher: (any LinkFetching)?,
        redirectFollower: RedirectFollower? = nil,
        stages: ResolverStages = ResolverStages(),
        identity: String? = nil
    ) {
        self.rules = rules
        self.engine = engine
        self.fetcher = fetcher
        self.stages = stages
        rulesIdentity = identity ?? "resolver-\(Self.instances.add(1, ordering: .relaxed).newValue)"
        // With a user layer, the manifest's own scripts too: its tests run without the layer, so a script rule the
        // layer disables must still run for them.
        scripts = engine?.compile(
            rules.userLayer == nil ? rules.scripts : rules.scripts + rules.withoutUserLayer.scripts
        )
        self.redirectFollower =
            redirectFollower ?? fetcher.map { ($0 as? FetchingStack)?.follower ?? RedirectFollower(wrapping: $0) }
    }

    private static let instances = Atomic<Int>(0)

    /// A resolver over other rules with everything else of this one (its engine, its network, whose fetching stack
    /// keeps every hop in its HTTP cache, and its stages): what a server makes for each new generation of rules.
    public func replacingRules(_ rules: RuleSet, identity: String? = nil) -> Resolver {
        Resolver(
            rules: rules,
            engine: engine,
            fetcher: fetcher,
            redirectFollower: redirectFollower,
            stages: stages,
            identity: identity
        )
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

    /// What the answer to `input` under `request` is made from (see `CacheKey`), known before resolving: a cache
    /// that holds an answer with this key need not resolve again while the answer's `Cacheability` allows.
    public func cacheKey(for input: String, _ request: ResolveRequest) -> CacheKey {
        var parts = ownParts
        for stage in stages.all { parts.append("stage:" + stage.identity) }
        parts.append("request:" + canonicalEncoding(of: request))
        parts.append("input:" + input)
        return CacheKey(parts: parts)
    }

    /// What an answer that one stage makes on its own, from `input` and the resolver's rules and network, is made
    /// from (the HTTP API's `/v1/claims`, the claims stage alone): the rules and the resolver's configuration as in
    /// ``cacheKey(for:_:)``, then `lookup:` and the stage's identity, then the input.
    public func cacheKey(for input: String, lookup stage: some ResolutionStage) -> CacheKey {
        CacheKey(parts: ownParts + ["lookup:" + stage.identity, "input:" + input])
    }

    /// The key's parts that the resolver's own rules and configuration give (`rules:…`, `resolver:…`).
    private var ownParts: [String] {
        [
            "rules:" + rulesIdentity,
            "resolver:scripts=\(engine == nil ? "off" : "on"),network=\(fetcher == nil ? "offline" : "online")",
        ]
    }

    /// The request's canonical encoding, kept for the last few distinct requests.
    private func canonicalEncoding(of request: ResolveRequest) -> String {
        if let known = encodings.withLock({ $0.value(for: request) }) { return known }
        let encoding = request.canonicalEncoding
        encodings.withLock { _ = $0.insert(encoding, for: request, cost: 1) }
        return encoding
    }

    /// Resolves a link that has been normalised, as ``resolve(_:input:_:)`` does, and gives the answer's cache key and
    /// how long it may be kept. Pass the `key` ``cacheKey(for:_:)`` gave for this input and request, when there is one,
    /// so that the stages' identities are read once.
    public func outcome(
        _ link: Link,
        input: String? = nil,
        _ request: ResolveRequest = ResolveRequest(),
        key: CacheKey? = nil
    ) async -> ResolutionOutcome {
        let key = key ?? cacheKey(for: input ?? link.text, request)
        var run = Run(request: request)
        var stage = unwrapAndMatch(link, headers: request.match.headers, &run)
        var steps = stage.steps
        var headersWanted = false
        if let redirectFollower {
            headersWanted = await unwrapOverHTTP(&stage, follower: redirectFollower, steps: &steps, &run)
        } else if !stage.hasAction, !run.notices.contains(where: { $0.code == RuleSet.opaqueWrapper }) {
            // Online, the link's server would be asked where it leads (a short link); offline that is said, not skipped
            // (an opaque wrapper's own notice says it already).
            run.notices.append(
                ResolutionNotice(
                    code: Self.offline,
                    message:
                        "offline, the server of \(stage.link.text) was not asked where the link leads: if it is a short link, it is not followed"
                )
            )
        }
        // The opening stages (the domain's claims) fetch while the scripts and the link's own answer are under way:
        // all of them wait on the network.
        let finalLink = stage.link
        let deadline = run.budget.deadline
        // One scope for the resolution: its stages and scripts share their answers (each distinct request once,
        // through the shared stack), and what the scripts returned is kept as long as those answers may be.
        let scope = fetcher.map { ResolutionScope(wrapping: $0) }
        async let added = addedOpenings(for: finalLink, request: request, scope: scope, deadline: deadline)
        let scriptNetwork =
            request.runsScripts
            ? engine?.fetcher.map { scriptsFetcher in
                // An engine with a network of its own (not the resolver's) gets a scope of its own over it.
                if let scope, let fetcher, (scriptsFetcher as AnyObject) === (fetcher as AnyObject) {
                    ScriptFetches(scope: scope)
                } else {
                    ScriptFetches(fetcher: scriptsFetcher)
                }
            } : nil
        if headersWanted, let redirectFollower {
            await renderAskingHeaders(&stage, follower: redirectFollower, network: scriptNetwork, &run)
        } else {
            await renderScripts(&stage, network: scriptNetwork, &run)
        }
        // Moved out of the stage, so that a decision does not copy every opening.
        var openings = stage.openings
        stage.openings = []
        merge(await added, into: &openings, link: stage.link, &run)
        if let wrapped = run.wrapped, run.trace != nil {
            // App openings open the inner link whatever browsers do: explain says the gateway is bypassed for them.
            run.trace?.gateway = GatewayTrace(
                wrapped: wrapped,
                steps: steps,
                openings: openings,
                browsersOpenWrapped: run.browserLink != nil
            )
        }
        var resolution = Resolution(
            input: input ?? link.text,
            unwrapped: stage.link.text,
            steps: steps,
            openings: openings,
            timedOutRules: run.timedOut,
            trace: run.trace
        )
        for url in run.staleURLs + (scriptNetwork?.staleURLs ?? []) {
            resolution.notices.append(.staleAnswer(from: url))
        }
        resolution.notices += run.notices
        decide(&resolution, link: stage.link, &run)
        if !run.timedOut.isEmpty {
            run.cacheability = run.cacheability.combined(with: .uncacheable(reason: "a regex ran out of time"))
        }
        return ResolutionOutcome(resolution: resolution, cacheKey: key, cacheability: run.cacheability)
    }

    /// Runs the scripts of the stage's openings, in place.
    func renderScripts(_ stage: inout Stage, network: ScriptFetches?, _ run: inout Run) async {
        guard run.request.runsScripts, let engine, let scripts, stage.openings.contains(where: \.needsScript) else {
            return
        }
        run.limit(
            to: await render(
                &stage.openings,
                link: stage.link,
                headers: stage.headers,
                engine: engine,
                scripts: scripts,
                network: network,
                deadline: run.budget.deadline
            )
        )
    }

    /// Asks for the link's own answer (for `headers` rules) while the scripts of the openings found without it run;
    /// then matches again with its headers, keeps each script output whose input does not hold the headers, and runs
    /// the scripts left.
    func renderAskingHeaders(
        _ stage: inout Stage,
        follower: RedirectFollower,
        network: ScriptFetches?,
        _ run: inout Run
    ) async {
        guard !run.budget.isExpired else {
            run.limit(to: .uncacheable(reason: "the time ran out before the link's server was asked"))
            return await renderScripts(&stage, network: network, &run)
        }
        async let asked = Self.ask(follower, stage.link, deadline: run.budget.deadline)
        await renderScripts(&stage, network: network, &run)
        switch await asked {
        case .failure(let error):
            take(error, &run)
        case .success(let hop):
            take(hop, of: stage.link, &run)
            guard hop.location == nil else { return }
            let rendered = stage.openings
            matchHeaders(of: hop, &stage, &run)
            Self.reuse(rendered, in: &stage.openings)
            await renderScripts(&stage, network: network, &run)
        }
    }

    /// Fills in the openings of `openings` whose script already ran in `rendered` on the same input (a script that
    /// does not match headers gets the link alone, so its output stands).
    static func reuse(_ rendered: [Opening], in openings: inout [Opening]) {
        var outputs: [OpeningIdentity: Opening] = [:]
        for opening in rendered where opening.script != nil && !opening.needsScript {
            outputs[OpeningIdentity(opening)] = opening
        }
        guard !outputs.isEmpty else { return }
        for index in openings.indices where openings[index].needsScript {
            guard let script = openings[index].script, !script.matchesHeaders,
                let done = outputs[OpeningIdentity(openings[index])]
            else { continue }
            openings[index].needsScript = false
            openings[index].url = done.url
            openings[index].error = done.error
        }
    }

    /// What tells one rule's opening from another's.
    struct OpeningIdentity: Hashable {
        var kind: Opening.Kind
        var rule: JSONPointer
        var layer: RuleLayer?

        init(_ opening: Opening) {
            kind = opening.kind
            rule = opening.rule
            layer = opening.layer
        }
    }

    /// The notice of an answer built on a stale copy of a response (`ResolutionNotice.staleAnswerCode`).
    public static let staleAnswer = ResolutionNotice.staleAnswerCode
    /// The notice of what an offline resolution left out (`ResolutionNotice.offlineCode`).
    public static let offline = ResolutionNotice.offlineCode

    /// What one resolution carries from stage to stage.
    struct Run {
        let request: ResolveRequest
        var budget: ResolutionBudget
        var trace: ResolutionTrace?
        var timedOut: [JSONPointer] = []
        var cacheability = Cacheability.unlimited
        /// The links whose HTTP answer was a stale copy served because their server failed.
        var staleURLs: [String] = []
        /// What the stages report about the resolution as a whole.
        var notices: [ResolutionNotice] = []
        /// The first link of the resolution a wrapper was decoded from (the original wrapped link).
        var wrapped: Link?
        /// The link browser openings are for when it is not the final one: the wrapped link, when the request or the
        /// user layer asks browsers to open it.
        var browserLink: Link?

        init(request: ResolveRequest) {
            self.request = request
            budget = ResolutionBudget(timeLimit: request.timeLimit, limits: request.match.budget)
            trace = request.trace ? ResolutionTrace() : nil
        }

        /// Makes the answer no more cacheable than `other`.
        mutating func limit(to other: Cacheability) {
            cacheability = cacheability.combined(with: other)
        }
    }
}
