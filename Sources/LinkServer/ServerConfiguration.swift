import AppChooser
import Foundation
import LinkCleaning
import LinkResolver
import LinkScripts

/// How `switchyard serve` runs: where it listens, which rules it serves, and the bounds it enforces.
public struct ServerConfiguration: Sendable {
    /// The interface to listen on (127.0.0.1 by default: exposing it is a decision).
    public var host: String
    /// The port (0: any free port).
    public var port: Int
    /// Where the rules come from.
    public var manifest: ManifestSource
    /// The user's own layer over the rules (a file, reloaded on change like the manifest and kept over manifest
    /// updates; a broken one is refused and the previous one keeps serving), nil for none.
    public var userLayer: String? = nil
    /// How often a file manifest is checked for changes, and a URL manifest is fetched again.
    public var reloadInterval: Duration
    /// The longest link accepted (longer: 414).
    public var maximumLinkLength: Int
    /// The room the request line leaves for the request target (``ConnectionLimits/maximumRequestTargetBytes``):
    /// the longest link percent-encoded in the query (three bytes for each of its bytes), and 1 KiB more for the
    /// path and the other parameters. A longer link than ``maximumLinkLength`` still reaches the route, which
    /// answers `414` with the JSON error.
    public var maximumRequestTargetBytes: Int { 3 * maximumLinkLength + 1024 }
    /// The largest request body accepted (larger: 413).
    public var maximumBodyBytes: Int
    /// The most links in one batch request.
    public var maximumBatchSize: Int
    /// The time one resolution may take, its scripts and HTTP requests included.
    public var scriptBudget: Duration
    /// Whether the server may fetch (scripts' requests, short links, headers); off: everything stays local.
    public var networkEnabled: Bool
    /// Whether fetches may reach loopback and private addresses (local testing only).
    public var allowPrivateAddresses: Bool
    /// The most network requests one script run may make; the next throws `E_TOO_MANY_SUBREQUESTS` in JavaScript.
    public var maximumScriptRequests: Int
    /// Where a manifest URL's last good copy is kept.
    public var cacheDirectory: URL
    /// How long a cache in front of the server (or a client) may answer with a reproducible answer without asking
    /// again: `Cache-Control: public, max-age=…` in whole seconds; zero sends `no-cache` (kept, but revalidated
    /// with its `ETag` every time). See ``HTTPCaching``.
    public var cacheMaxAge: Duration
    /// How the server's own logger writes, when it is not given one: nil (the default) logs through swift-log's
    /// logging system, as the process bootstrapped it (`switchyard serve --log-format` bootstraps it with
    /// ``LogFormat/handler(label:level:stream:)``); `.text` or `.json` makes a handler of that format on standard
    /// error at `info`, whatever the process's logging system is (``JSONLogHandler``: one JSON object per line).
    public var logFormat: LogFormat?
    /// Bounds per connection: open connections, header size and count, header timeout (the body limit is
    /// ``maximumBodyBytes``).
    public var connectionLimits = ConnectionLimits()
    /// The choices store whose site choices `/v1/resolve` and `/v1/explain` apply and `/v1/choices/sites` manages
    /// (`serve --choices FILE`); nil: none (those routes answer `404 E_NO_CHOICES_STORE`).
    public var choices: ChoicesStore? = nil
    /// The cleaning stage (ClearURLs' catalog, `serve --clean-rules`): links are cleaned before the rules see them
    /// unless a request says `clean=false`; nil: links are not cleaned.
    public var cleaning: ServerCleaning? = nil

    /// Creates a configuration with safe defaults.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        manifest: ManifestSource = .bundled,
        reloadInterval: Duration = .seconds(5),
        maximumLinkLength: Int = 8192,
        maximumBodyBytes: Int = 1 << 20,
        maximumBatchSize: Int = 1000,
        scriptBudget: Duration = .seconds(5),
        networkEnabled: Bool = true,
        allowPrivateAddresses: Bool = false,
        maximumScriptRequests: Int = ScriptConfiguration.defaultMaximumSubrequests,
        cacheDirectory: URL = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-manifests"),
        cacheMaxAge: Duration = .seconds(60)
    ) {
        self.cacheDirectory = cacheDirectory
        self.cacheMaxAge = cacheMaxAge
        self.scriptBudget = scriptBudget
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

/// The catalog a server cleans links with, and what identifies it in entity tags.
public struct ServerCleaning: Sendable {
    /// The compiled catalog.
    public var cleaner: LinkCleaner
    /// The catalog's SHA-256 (hex): cleaned documents differ with the catalog, so their tags name it.
    public var identity: String
    /// Whether referral-marketing fields are kept (`--allow-referral-marketing`).
    public var allowsReferralMarketing: Bool

    /// Creates the cleaning settings.
    public init(cleaner: LinkCleaner, identity: String, allowsReferralMarketing: Bool = false) {
        self.cleaner = cleaner
        self.identity = identity
        self.allowsReferralMarketing = allowsReferralMarketing
    }
}
