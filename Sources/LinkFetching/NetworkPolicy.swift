import WebLinks

/// What a network fetcher (LinkFetchingHTTP's `LiveFetcher`) may contact and how much it may read: the single place
/// where the safety rules live.
///
/// The defaults follow what hardened fetchers use (Discourse, Mastodon, safeurl): http/https only, ports 80/443,
/// public addresses only (checked after DNS, on every redirect hop), 5 redirects, 5 MiB decoded body, 10 s.
public struct NetworkPolicy: Sendable {
    /// URL schemes that may be fetched, lowercase.
    public var allowedSchemes: Set<String>
    /// Whether loopback, private, link-local, multicast and reserved destinations are allowed (tests use 127.0.0.1).
    public var allowPrivateAddresses: Bool
    /// Non-public addresses allowed anyway, one by one (a test server's 127.0.0.1, a known internal mirror),
    /// while every other private address stays blocked.
    public var allowedAddresses: Set<IPAddress>
    /// Ports that may be contacted; any port is allowed while ``allowPrivateAddresses`` is true, because
    /// loopback test servers listen on ephemeral ports.
    public var allowedPorts: Set<Int>
    /// The most redirects one request may follow.
    public var maxRedirects: Int
    /// The most body bytes read from one response, counted after decompression (a gzip bomb aborts).
    public var maxBodyBytes: Int
    /// The time limit for one request including its redirects and body.
    public var timeout: Duration
    /// How host names become addresses; replace it in tests to simulate DNS answers.
    public var resolver: HostResolver
    /// Requests whose connection goes elsewhere (curl's `--connect-to`), the first that applies winning; the address
    /// connected to is checked as any other.
    public var connectTo: [ConnectionOverride] = []

    /// Creates a policy; every argument defaults to the safe value.
    public init(
        allowedSchemes: Set<String> = ["http", "https"],
        allowPrivateAddresses: Bool = false,
        allowedAddresses: Set<IPAddress> = [],
        allowedPorts: Set<Int> = [80, 443],
        maxRedirects: Int = 5,
        maxBodyBytes: Int = 5 * 1024 * 1024,
        timeout: Duration = .seconds(10),
        resolver: HostResolver = .system
    ) {
        self.allowedSchemes = Set(allowedSchemes.map { $0.lowercased() })
        self.allowPrivateAddresses = allowPrivateAddresses
        self.allowedAddresses = allowedAddresses
        self.allowedPorts = allowedPorts
        self.maxRedirects = max(0, maxRedirects)
        self.maxBodyBytes = max(0, maxBodyBytes)
        self.timeout = timeout
        self.resolver = resolver
    }

    /// The safe defaults.
    public static var standard: NetworkPolicy { NetworkPolicy() }

    /// The defaults, but private addresses and any port allowed: for tests against a loopback server.
    public static var loopback: NetworkPolicy { NetworkPolicy(allowPrivateAddresses: true) }

    /// The override that sends a request to `link` elsewhere, if one does.
    public func connectionOverride(for link: Link) -> ConnectionOverride? {
        connectTo.first { $0.applies(to: link) }
    }

    /// Whether `port` may be contacted under this policy.
    public func allows(port: Int) -> Bool {
        allowPrivateAddresses || allowedPorts.contains(port)
    }
}
