import AppChooser
import Foundation
import LinkFetching
import LinkFetchingHTTP
import LinkResolver
import LinkScripts
import Prometheus

/// How `switchyard serve` runs: where it listens, which rules it serves, and the bounds it enforces.
package struct ServerConfiguration: Sendable {
    /// The interface to listen on (127.0.0.1 by default: exposing it is a decision).
    package var host: String
    /// The port (0: any free port).
    package var port: Int
    /// Where the rules come from.
    package var manifest: ManifestSource
    /// The user's own layer over the rules (a file, reloaded on change like the manifest and kept over manifest
    /// updates; a broken one is refused and the previous one keeps serving), nil for none.
    package var userLayer: String? = nil
    /// How often a file manifest is checked for changes, and a URL manifest is fetched again.
    package var reloadInterval: Duration
    /// The longest link accepted (longer: 414).
    package var maximumLinkLength: Int
    /// The room the request line leaves for the request target (``ConnectionLimits/maximumRequestTargetBytes``):
    /// the longest link percent-encoded in the query (three bytes for each of its bytes), and 1 KiB more for the
    /// path and the other parameters. A link longer than ``maximumLinkLength``, as written or in its canonical form
    /// (whose non-ASCII characters are percent-encoded), still reaches the route, which answers `414` with the JSON
    /// error.
    package var maximumRequestTargetBytes: Int { 3 * maximumLinkLength + 1024 }
    /// The largest request body accepted (larger: 413).
    package var maximumBodyBytes: Int
    /// The most links in one batch request.
    package var maximumBatchSize: Int
    /// The time one resolution may take, its scripts and HTTP requests included (`serve --timeout`); a request may ask
    /// for less (`timeout=`), never more. Each of the manifest's own tests with a script (`/v1/tests`) gets it too.
    package var timeLimit: Duration
    /// Whether the server may fetch (scripts' requests, short links, headers); off: everything stays local.
    package var networkEnabled: Bool
    /// Whether fetches may reach loopback and private addresses (local testing only).
    package var allowPrivateAddresses: Bool
    /// The most network requests one script run may make; the next throws `E_TOO_MANY_SUBREQUESTS` in JavaScript.
    package var maximumScriptRequests: Int
    /// How politely each upstream host is treated (`serve --per-host-requests`, `--per-host-rate`).
    package var hostLimits = HostLimits()
    /// The HTTP cache every resolution fetches through (script requests, short-link hops).
    package var httpCache = HTTPCache.Configuration()
    /// Where a manifest URL's last good copy is kept.
    package var cacheDirectory: URL
    /// How long a cache in front of the server (or a client) may answer with a reproducible answer without asking
    /// again: `Cache-Control: public, max-age=…` in whole seconds; zero sends `no-cache` (kept, but revalidated
    /// with its `ETag` every time). See ``HTTPCaching``.
    package var cacheMaxAge: Duration
    /// How the server's own logger writes, when it is not given one: nil (the default) logs through swift-log's
    /// logging system, as the process bootstrapped it (`switchyard serve --log-format` bootstraps it with
    /// ``LogFormat/handler(label:level:stream:)``); `.text` or `.json` makes a handler of that format on standard
    /// error at `info`, whatever the process's logging system is (``JSONLogHandler``: one JSON object per line).
    package var logFormat: LogFormat?
    /// Bounds per connection: open connections, header size and count, header timeout (the body limit is
    /// ``maximumBodyBytes``).
    package var connectionLimits = ConnectionLimits()
    /// The choices store whose site choices `/v1/resolve` and `/v1/explain` apply and `/v1/choices/sites` manages
    /// (`serve --choices FILE`); nil: none (those routes answer `404 E_NO_CHOICES_STORE`).
    package var choices: ChoicesStore? = nil
    /// The cleaning stage (ClearURLs' catalog, `serve --clean-rules`): links are cleaned before the rules see them
    /// unless a request says `clean=false`; nil: links are not cleaned.
    package var cleaner: (any LinkCleaningStage)? = nil
    /// Whether cleaning keeps referral-marketing fields unless a request says otherwise (`--allow-referral-marketing`).
    package var allowsReferralMarketing = false
    /// The opening stages (`serve --claims`: the domain's claims), run on each final link unless a request says
    /// `claims=false`; `/v1/claims` answers only when there is one.
    package var openingStages: [any LinkOpeningStage] = []
    /// The network client (`serve --connect-to`, `--trust-ca`); nil: one with the standard policy, private addresses
    /// allowed as ``allowPrivateAddresses`` says. Used only when ``networkEnabled``.
    package var upstream: (any LinkFetching)? = nil

    /// The fetching stack everything the server fetches goes through (resolutions, its manifest URL, catalogs): the
    /// HTTP cache, coalescing, per-host limits and host state over ``upstream``, counted in the server's own registry
    /// (`/metrics`); nil when the network is off.
    package func makeStack(metrics: ServerMetrics) -> FetchingStack? {
        guard networkEnabled else { return nil }
        let upstream = upstream ?? LiveFetcher(policy: NetworkPolicy(allowPrivateAddresses: allowPrivateAddresses))
        return FetchingStack(
            upstream: upstream,
            cache: httpCache,
            limits: hostLimits,
            metrics: FetchMetrics(factory: PrometheusMetricsFactory(registry: metrics.registry))
        )
    }

    /// The stages every resolution runs: the cleaner, the opening stages, then the remembered site choices.
    package var stages: ResolverStages {
        ResolverStages(
            cleaning: cleaner.map { [$0] } ?? [],
            openings: openingStages,
            decisions: choices.map { [$0] } ?? []
        )
    }

    /// What a request is before its query or body says otherwise: the server's time limit, link length limit and
    /// referral-marketing switch.
    package var requestDefaults: ResolveRequest {
        var request = ResolveRequest(timeLimit: timeLimit, maximumLinkLength: maximumLinkLength)
        request.allowsReferralMarketing = allowsReferralMarketing
        return request
    }

    /// Creates a configuration with safe defaults.
    package init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        manifest: ManifestSource = .bundled,
        reloadInterval: Duration = .seconds(5),
        maximumLinkLength: Int = 8192,
        maximumBodyBytes: Int = 1 << 20,
        maximumBatchSize: Int = 1000,
        timeLimit: Duration = .seconds(5),
        networkEnabled: Bool = true,
        allowPrivateAddresses: Bool = false,
        maximumScriptRequests: Int = ScriptConfiguration.defaultMaximumSubrequests,
        cacheDirectory: URL = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-manifests"),
        cacheMaxAge: Duration = .seconds(60)
    ) {
        self.cacheDirectory = cacheDirectory
        self.cacheMaxAge = cacheMaxAge
        self.timeLimit = timeLimit
        self.networkEnabled = networkEnabled
        self.allowPrivateAddresses = allowPrivateAddresses
        self.maximumScriptRequests = maximumScriptRequests
        self.host = host
        self.port = port
        self.manifest = manifest
        self.reloadInterval = reloadInterval
        self.maximumLinkLength = maximumLinkLength
        self.maximumBodyBytes = maximumBodyBytes
        self.maximumBatchSize = maximumBatchSize
    }
}
