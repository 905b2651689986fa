import AsyncHTTPClient
import Synchronization
import WebLinks

/// The `HTTPClient`s of recent hops, one for each host, checked address, port, body limit and set of extra trusted
/// roots, so that a hop reuses the connections of earlier hops to the same checked address, and their TLS context.
///
/// A client per hop cost a new connection, a TLS handshake and a fresh TLS context, which reads the system's roots
/// again (a third of the online service's CPU time went to parsing the roots' PEM). A client here is still pinned to
/// one checked address (its `dnsOverride`), so a connection never outlives the address it was checked for: a hop whose
/// host now resolves elsewhere gets another client. Clients idle for ``idleTime`` or beyond ``capacity`` (least
/// recently used first: the one `LRUStore`, with the clients in use pinned) are shut down; one in use never is.
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
    private let entries: Mutex<LRUStore<Key, Entry>>
    /// When idle clients were last looked for: at most every second.
    private let lastSweep = Mutex(ContinuousClock.now)

    init(capacity: Int, idleTime: Duration) {
        self.capacity = capacity
        self.idleTime = idleTime
        entries = Mutex(LRUStore(capacity: capacity))
    }

    /// The number of clients kept.
    var count: Int { entries.withLock { $0.count } }

    /// The client for `key` (made with `make` when there is none), marked in use until ``release(_:)``.
    func acquire(_ key: Key, make: () -> HTTPClient) -> HTTPClient {
        let (client, retired) = entries.withLock { entries -> (HTTPClient, [HTTPClient]) in
            if let entry = entries.value(for: key) {
                entries.update(key) { $0.users += 1 }
                return (entry.client, [])
            }
            let client = make()
            let evicted = entries.insert(Entry(client: client, users: 1, lastUsed: .now), for: key, cost: 1) {
                $0.users > 0
            }
            return (client, evicted.map(\.value.client))
        }
        Self.shutDown(retired)
        return client
    }

    /// Shuts down every client kept and forgets them (a client still in use fails its request).
    func shutDownAll() async {
        let all = entries.withLock { entries in entries.evictOldest { _, _ in .remove }.map(\.value.client) }
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
            entries.update(key) { entry in
                entry.users -= 1
                entry.lastUsed = now
            }
            var retired = entries.trim { $0.users > 0 }
            if sweeps {
                // In the order of their last acquisition, which is not quite that of their last release: every idle
                // client is looked at (there are at most a few dozen, once a second).
                retired += entries.evictOldest { _, entry in
                    entry.users == 0 && now - entry.lastUsed > idleTime ? .remove : .keep
                }
            }
            return retired.map(\.value.client)
        }
        Self.shutDown(retired)
    }

    /// Shuts down clients no longer kept, without waiting.
    private static func shutDown(_ clients: [HTTPClient]) {
        for client in clients {
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
