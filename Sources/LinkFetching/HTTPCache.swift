import Foundation
import Synchronization
import WebLinks

/// The responses a ``CachingFetcher`` keeps: an in-memory shared cache as RFC 9111 defines it, bounded in bytes, the
/// least recently used responses out first.
///
/// One value is meant to be shared by every fetcher of a process (the CLI's run, the server's resolutions), so an
/// answer one resolution fetched serves the next. Responses are kept per URL, several variants each when the server
/// names request fields in `Vary`. What is stored and for how long is RFC 9111's rule for a *shared* cache (`private`
/// responses are not stored, `s-maxage` wins); what the RFC leaves open is ``Configuration``.
public final class HTTPCache: Sendable {
    /// The cache's bounds and the choices RFC 9111 leaves to a cache.
    public struct Configuration: Sendable, Hashable {
        /// The most memory all stored responses take together (bodies, fields and bookkeeping). Default 32 MiB.
        public var maxBytes: Int
        /// The largest single response stored; larger ones pass through. Default 2 MiB.
        public var maxEntryBytes: Int
        /// The most variants kept for one URL (a `Vary` on a field with many values); the oldest goes. Default 8.
        public var maxVariants: Int
        /// The share of the time since `Last-Modified` a response without explicit freshness stays fresh
        /// (RFC 9111 §4.2.2 suggests 10%). Default 0.1.
        public var heuristicFraction: Double
        /// The longest heuristic freshness. Default one day.
        public var maxHeuristicLifetime: Duration
        /// How long a `301` or `308` without explicit freshness and without `Last-Modified` stays fresh: permanent
        /// redirects are cacheable by default, and short links do not change their target. Default one day.
        public var permanentRedirectLifetime: Duration
        /// How long past its freshness a stored response may still answer when the server cannot (an error, a
        /// time-out, a `5xx`, a back-off), for responses that do not say themselves (RFC 5861 `stale-if-error=N`)
        /// and do not forbid it (`must-revalidate`, `proxy-revalidate`, `s-maxage`, `no-cache`). Such an answer
        /// is marked ``CacheStatus/stale``. Default one day; zero turns it off.
        public var staleIfError: Duration

        /// Creates a configuration; every argument defaults to the documented value.
        public init(
            maxBytes: Int = 32 * 1024 * 1024,
            maxEntryBytes: Int = 2 * 1024 * 1024,
            maxVariants: Int = 8,
            heuristicFraction: Double = 0.1,
            maxHeuristicLifetime: Duration = .seconds(86_400),
            permanentRedirectLifetime: Duration = .seconds(86_400),
            staleIfError: Duration = .seconds(86_400)
        ) {
            self.maxBytes = max(0, maxBytes)
            self.maxEntryBytes = max(0, maxEntryBytes)
            self.maxVariants = max(1, maxVariants)
            self.heuristicFraction = heuristicFraction.isFinite ? min(max(heuristicFraction, 0), 1) : 0.1
            self.maxHeuristicLifetime = max(.zero, maxHeuristicLifetime)
            self.permanentRedirectLifetime = max(.zero, permanentRedirectLifetime)
            self.staleIfError = max(.zero, staleIfError)
        }
    }

    /// The bounds and choices in force.
    public let configuration: Configuration
    /// The clock ages are read on.
    public let clock: FetchClock
    /// Where cache hits, misses, revalidations and stale answers are counted.
    public let metrics: FetchMetrics
    private let store: Mutex<LRUStore<String, [StoredResponse]>>

    /// Creates an empty cache.
    public init(configuration: Configuration = Configuration(), clock: FetchClock = .system, metrics: FetchMetrics) {
        self.configuration = configuration
        self.clock = clock
        self.metrics = metrics
        self.store = Mutex(LRUStore(capacity: configuration.maxBytes))
    }

    /// Creates an empty cache counting in the process's metrics system.
    public convenience init(configuration: Configuration = Configuration(), clock: FetchClock = .system) {
        self.init(configuration: configuration, clock: clock, metrics: FetchMetrics())
    }

    /// The memory the stored responses take now, as the bound counts it.
    public var byteCount: Int { store.withLock { $0.totalCost } }

    /// The number of URLs with at least one stored response.
    public var urlCount: Int { store.withLock { $0.count } }

    /// Forgets every stored response.
    public func removeAll() {
        store.withLock { $0.removeAll() }
    }

    /// The most recent stored response that may answer `request` (whatever its freshness); counts as a use.
    func lookup(_ request: FetchRequest) -> StoredResponse? {
        store.withLock { store in
            store.value(for: request.url.requestText)?
                .filter { $0.answers(request) }
                .max { $0.responseTime < $1.responseTime }
        }
    }

    /// Keeps `entry`, replacing the variant of the same method and selecting fields; false when it is too large.
    @discardableResult
    func store(_ entry: StoredResponse) -> Bool {
        guard entry.cost <= configuration.maxEntryBytes else {
            remove(entry)
            return false
        }
        let key = entry.url
        store.withLock { store in
            var variants = (store.peek(key) ?? []).filter { !$0.isVariant(of: entry) }
            variants.append(entry)
            variants.removeFirst(max(0, variants.count - configuration.maxVariants))
            store.insert(variants, for: key, cost: variants.reduce(0) { $0 + $1.cost })
        }
        return true
    }

    /// Forgets the variant `entry` stands for.
    func remove(_ entry: StoredResponse) {
        let key = entry.url
        store.withLock { store in
            let variants = (store.peek(key) ?? []).filter { !$0.isVariant(of: entry) }
            if variants.isEmpty {
                store.remove(key)
            } else {
                store.insert(variants, for: key, cost: variants.reduce(0) { $0 + $1.cost })
            }
        }
    }
}

extension HTTPCache {
    /// The stored response that may answer `request`, whatever its freshness: the one in memory, else the copy kept
    /// in `folder` (``CacheStore``), which is then stored in memory too, so that the cache judges it from here on.
    func storedResponse(for request: FetchRequest, persistedIn folder: URL) -> StoredResponse? {
        if let stored = lookup(request) { return stored }
        guard let persisted = CacheStore(directory: folder, url: request.url.requestText).read(),
            persisted.answers(request)
        else { return nil }
        store(persisted)
        return persisted
    }

    /// Keeps the response stored for `request` in `folder` too, for the next run; throws when it cannot be written.
    func persist(_ request: FetchRequest, in folder: URL) throws(FetchError) {
        guard let stored = lookup(request) else { return }
        try CacheStore(directory: folder, url: request.url.requestText).write(stored)
    }

    /// Puts `entry` back as its URL's response, replacing one its caller refused (a download that failed its
    /// validation must not be served).
    func restore(_ entry: StoredResponse) {
        store(entry)
    }
}

extension StoredResponse {
    /// Whether `other` is the same variant: the same method and the same selecting request fields.
    func isVariant(of other: StoredResponse) -> Bool {
        method == other.method && selecting == other.selecting
    }
}
