import WebLinks

/// What a network fetcher (LinkFetchingHTTP's `LiveFetcher`) may contact and how much it may read: the single place
/// where the safety rules live.
///
/// The defaults follow what hardened fetchers use (Discourse, Mastodon, safeurl): http/https only, ports 80/443,
/// public addresses only (checked after DNS, on every request, so on every redirect hop the redirect layer sends),
/// 5 MiB decoded body, 10 s in all, a connection within 2 s and no silence of more than 5 s while reading.
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
    /// The most body bytes read from one response, counted after decompression (a gzip bomb aborts).
    public var maxBodyBytes: Int
    /// The time limit for one request including its body (a request's own ``FetchRequest/timeout`` may be shorter).
    public var timeout: Duration
    /// The longest a connection (TCP, and TLS for https) may take to be made; a host that takes longer fails with
    /// ``FetchError/Code/connectTimeout``, which says something about the host, rather than using up the request's
    /// whole time limit. Default 2 seconds.
    public var connectTimeout: Duration
    /// The longest the server may stay silent once a request is sent (before its answer, and between parts of the
    /// body); beyond it the request fails with ``FetchError/Code/timeout``, inside the request's time limit, so that
    /// a host that accepts and never answers holds a caller for at most this long. Default 5 seconds.
    public var readTimeout: Duration
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
        maxBodyBytes: Int = 5 * 1024 * 1024,
        timeout: Duration = .seconds(10),
        connectTimeout: Duration = .seconds(2),
        readTimeout: Duration = .seconds(5),
        resolver: HostResolver = .system
    ) {
        self.allowedSchemes = Set(allowedSchemes.map { $0.lowercased() })
        self.allowPrivateAddresses = allowPrivateAddresses
        self.allowedAddresses = allowedAddresses
        self.allowedPorts = allowedPorts
        self.maxBodyBytes = max(0, maxBodyBytes)
        self.timeout = timeout
        self.connectTimeout = max(.milliseconds(1), connectTimeout)
        self.readTimeout = max(.milliseconds(1), readTimeout)
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
