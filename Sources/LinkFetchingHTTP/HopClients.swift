import AsyncHTTPClient
import Synchronization

/// The `HTTPClient`s of recent hops, one for each host, checked address, port, body limit and set of extra trusted
/// roots, so that a hop reuses the connections of earlier hops to the same checked address, and their TLS context.
///
/// A client per hop cost a new connection, a TLS handshake and a fresh TLS context, which reads the system's roots
/// again (a third of the online service's CPU time went to parsing the roots' PEM). A client here is still pinned to
/// one checked address (its `dnsOverride`), so a connection never outlives the address it was checked for: a hop whose
/// host now resolves elsewhere gets another client. Clients idle for ``idleTime`` or beyond ``capacity`` (least
/// recently used first) are shut down; one in use never is.
final class HopClients: Sendable {
    /// What a client is made for.
    struct Key: Hashable, Sendable {
        var host: String
        var address: String
        var port: Int
        var limit: Int
        /// The connect and read time limits.
        var timeouts: [Duration]
        /// The DER bytes of the extra trusted roots (read once per fetcher: hashing a certificate reads them anew).
        var trustRoots: [[UInt8]]
    }

    private struct Entry {
        let client: HTTPClient
        var users: Int
        var lastUsed: ContinuousClock.Instant
    }

    /// The clients of every fetcher in the process.
    static let shared = HopClients(capacity: 64, idleTime: .seconds(30))

    /// The most clients kept while idle.
    let capacity: Int
    /// How long an idle client is kept.
    let idleTime: Duration
    private let entries = Mutex<[Key: Entry]>([:])
    /// When idle clients were last looked for: at most every second, or when more than ``capacity`` are kept.
    private let lastSweep = Mutex(ContinuousClock.now)

    init(capacity: Int, idleTime: Duration) {
        self.capacity = capacity
        self.idleTime = idleTime
    }

    /// The number of clients kept.
    var count: Int { entries.withLock { $0.count } }

    /// The client for `key` (made with `make` when there is none), marked in use until ``release(_:)``.
    func acquire(_ key: Key, make: () -> HTTPClient) -> HTTPClient {
        entries.withLock { entries in
            if var entry = entries[key] {
                entry.users += 1
                entries[key] = entry
                return entry.client
            }
            let client = make()
            entries[key] = Entry(client: client, users: 1, lastUsed: .now)
            return client
        }
    }

    /// Shuts down every client kept and forgets them (a client still in use fails its request).
    func shutDownAll() async {
        let all = entries.withLock { entries in
            defer { entries = [:] }
            return entries.values.map(\.client)
        }
        for client in all { try? await client.shutdown() }
    }

    /// Ends one use of the client for `key`; shuts down the clients idle too long or beyond the capacity.
    func release(_ key: Key) {
        let now = ContinuousClock.now
        let sweeps = lastSweep.withLock { last in
            guard now - last > .seconds(1) else { return false }
            last = now
            return true
        }
        let retired = entries.withLock { entries -> [HTTPClient] in
            if var entry = entries[key] {
                entry.users -= 1
                entry.lastUsed = now
                entries[key] = entry
            }
            guard sweeps || entries.count > capacity else { return [] }
            var idle = entries.filter { $0.value.users == 0 }.sorted { $0.value.lastUsed < $1.value.lastUsed }
            var retired: [HTTPClient] = []
            while let oldest = idle.first,
                now - oldest.value.lastUsed > idleTime || entries.count > capacity
            {
                entries[oldest.key] = nil
                retired.append(oldest.value.client)
                idle.removeFirst()
            }
            return retired
        }
        for client in retired {
            Task { try? await client.shutdown() }
        }
    }
}

extension LiveFetcher {
    /// Shuts down the connections that the live fetchers of this process keep for later hops (the clients of
    /// `HopClients`, on the shared event loop group), once nothing fetches any more: a server calls it when it has
    /// stopped, after its requests have drained. A request still under way fails; a later one makes new connections.
    public static func shutDownKeptConnections() async {
        await HopClients.shared.shutDownAll()
    }
}
