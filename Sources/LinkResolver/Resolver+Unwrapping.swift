import HTTPTypes
import LinkFetching
import LinkMatching
import LinkResolution
import LinkRules
import LinkWrappers
import WebLinks

extension Resolver {
    /// What the cleaning stages, the redirect rules and the matcher gave for one link.
    struct Stage {
        var link: Link
        var steps: [UnwrapStep]
        var headers: HTTPFields?
        var openings: [Opening]
        /// Whether the user layer removed action openings (a site left alone, links from an app kept to browsers).
        var layerDecided = false

        /// Whether the link is decided: an action opens it, or the user layer said no action may.
        var hasAction: Bool { layerDecided || openings.contains { $0.kind == .action } }
    }

    /// The link wrappers, the cleaning stages, the redirect rules (a rule's target decoded and cleaned again), then the
    /// matcher with `headers` (given, or from the link's own HTTP answer).
    ///
    /// Wrappers come first, before cleaning and the redirect rules: a gateway's wrapping is transport, not part of the
    /// link the user means, and every later stage decides by that link's host (a site the user layer leaves alone, the
    /// cleaning catalog's providers, the manifest's redirect rules for Google's and Facebook's pages, which the
    /// catalog decodes exactly by name instead); cleaning the wrapper link would only strip the gateway's own
    /// parameters. A redirect rule's target, and the link every HTTP redirect leads to, are decoded again.
    func unwrapAndMatch(_ link: Link, headers: HTTPFields?, _ run: inout Run) -> Stage {
        var before: [UnwrapStep] = []
        let link = clean(decodeWrappers(link, steps: &before, &run), steps: &before, &run)
        var unwrapped = rules.unwrap(
            link,
            sourceApp: run.request.match.sourceApp,
            budget: &run.budget,
            trace: &run.trace
        )
        if unwrapped.link != link {
            // A redirect rule's target is decoded and cleaned too, before the matcher sees it.
            var after: [UnwrapStep] = []
            unwrapped.link = clean(decodeWrappers(unwrapped.link, steps: &after, &run), steps: &after, &run)
            unwrapped.steps += after
        }
        if !before.isEmpty { unwrapped.steps = before + unwrapped.steps }
        let matched = rules.match(
            unwrapped.link,
            options: run.request.matchOptions(headers: headers),
            budget: &run.budget,
            trace: &run.trace,
            browsersOpen: run.browserLink
        )
        run.timedOut += unwrapped.timedOut + matched.timedOut
        return Stage(
            link: unwrapped.link,
            steps: unwrapped.steps,
            headers: headers,
            openings: matched.openings,
            layerDecided: matched.layerRemovedActions
        )
    }

    /// Asks the link's server, one hop at a time, as Opener unwraps short links: while no action opens the link, a
    /// redirect is followed and the cleaning stages, the redirect rules and the matcher run again on where it points,
    /// so the next server is asked only when nothing opens the link yet; and when a `headers` rule could apply, the
    /// same answer's headers are matched (one request per link, never the chain again). A hop that fails, loops or
    /// runs out of time ends the unwrapping at the last good link, and a refused step says why.
    ///
    /// When an action opens the link and its answer is wanted only for its headers, it is not asked here: this returns
    /// true, and the caller asks for it while the scripts run (``matchHeaders(of:_:_:)``), so a link costs one network
    /// round trip, not two. A resolution that asks the network, or that the deadline stops before it could, is not
    /// cacheable.
    func unwrapOverHTTP(
        _ stage: inout Stage,
        follower: RedirectFollower,
        steps: inout [UnwrapStep],
        _ run: inout Run
    ) async -> Bool {
        var route = RedirectRoute(start: stage.link, maxHops: follower.maxHops)
        while true {
            let wantsHeaders = wantsHeaders(of: stage, run)
            let wantsRedirect = !stage.hasAction
            guard wantsHeaders || wantsRedirect else { return false }
            guard wantsRedirect else { return true }
            guard !run.budget.isExpired else {
                run.limit(to: .uncacheable(reason: "the time ran out before the link's server was asked"))
                return false
            }
            let hop: RedirectFollower.Hop
            let pages = pageReading(stage.link, run)
            switch await Self.ask(follower, stage.link, deadline: run.budget.deadline, pages: pages) {
            case .success(let answer):
                hop = answer
                take(hop, of: stage.link, &run)
            case .failure(let error):
                take(error, &run)
                steps.append(.refusedHop(from: stage.link, error))
                return false
            }
            guard let next = hop.location else {
                // The link's own answer: its headers are what `headers` rules match.
                if wantsHeaders { matchHeaders(of: hop, &stage, &run) }
                return false
            }
            do {
                try route.advance(to: next)
            } catch {
                steps.append(.refusedHop(from: stage.link, error))
                return false
            }
            steps.append(UnwrapStep(hop, from: stage.link, to: next))
            stage = unwrapAndMatch(next, headers: run.request.match.headers, &run)
            steps += stage.steps
        }
    }
}

extension Resolver {
    /// Whether the link's own answer is wanted for its headers: none were given or looked up, and a `headers` rule
    /// could apply.
    func wantsHeaders(of stage: Stage, _ run: Run) -> Bool {
        run.request.match.headers == nil && stage.headers == nil && rules.headerRulesCouldApply(to: stage.link)
    }

    /// How the redirects `link`'s page makes itself are taken: its page read when the request asks for every page or
    /// the wrapper catalog names its host a bounce host; refreshes within the request's delay (5 s unless said).
    func pageReading(_ link: Link, _ run: Run) -> RedirectFollower.PageReading {
        RedirectFollower.PageReading(
            readsPage: run.request.followsPages ?? false || rules.wrappers.isBouncePage(link),
            maximumDelay: run.request.maximumRefreshDelay ?? RedirectFollower.PageReading().maximumDelay
        )
    }

    /// One hop of `link`, its failure as a value.
    static func ask(
        _ follower: RedirectFollower,
        _ link: Link,
        deadline: ContinuousClock.Instant,
        pages: RedirectFollower.PageReading = RedirectFollower.PageReading()
    ) async -> Result<RedirectFollower.Hop, FetchError> {
        do {
            return .success(try await follower.hop(link, deadline: deadline, pages: pages))
        } catch {
            return .failure(error)
        }
    }

    /// What a hop's answer makes of the resolution's cacheability: no longer than the answer may be kept.
    func take(_ hop: RedirectFollower.Hop, of link: Link, _ run: inout Run) {
        if let freshness = hop.freshness, freshness > .zero {
            run.limit(to: .upTo(freshness))
        } else {
            run.limit(to: .uncacheable(reason: "the link's server answered with nothing a cache may keep"))
        }
        if hop.cacheStatus == .stale { run.staleURLs.append(link.text) }
    }

    /// What a hop's failure makes of it: a failure the fetching layer remembers stands as the answer for that long.
    func take(_ error: FetchError, _ run: inout Run) {
        run.limit(to: error.freshness.map(Cacheability.upTo) ?? .uncacheable(reason: "asking the link's server failed"))
    }

    /// The matcher again, with the headers of the link's own answer, for `headers` rules.
    func matchHeaders(of hop: RedirectFollower.Hop, _ stage: inout Stage, _ run: inout Run) {
        let matched = rules.match(
            stage.link,
            options: run.request.matchOptions(headers: hop.headers),
            budget: &run.budget,
            trace: &run.trace,
            browsersOpen: run.browserLink
        )
        stage.openings = matched.openings
        stage.headers = hop.headers
        run.timedOut += matched.timedOut
    }
}

extension UnwrapStep {
    /// The step of a hop that redirects: a 3xx (`HEAD 301`), a `Refresh` header or a meta refresh (`GET 200, 0 s`).
    init(_ hop: RedirectFollower.Hop, from link: Link, to next: Link) {
        let kind: Kind =
            switch hop.kind {
            case .refreshHeader?: .refreshHeader
            case .metaRefresh?: .metaRefresh
            case .http?, nil: .httpRedirect
            }
        let delay = hop.refreshDelay.map { ", \($0) s" } ?? ""
        self.init(kind: kind, rule: "\(hop.method.rawValue) \(hop.status)\(delay)", from: link.text, to: next.text)
    }

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
