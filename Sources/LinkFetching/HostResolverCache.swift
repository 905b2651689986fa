import Foundation
import Synchronization
import WebLinks

/// Host names' answers kept for a while, so that a resolution does not wait for the system resolver again for a name
/// it asked a moment ago: a name that resolves is kept for ``Configuration/positiveLifetime``, a name that does not
/// (no such name, no address) for the shorter ``Configuration/negativeLifetime``, and concurrent lookups of one name
/// are made once, every caller getting the one answer.
///
/// A caller waits for a lookup in flight without blocking a thread and stops waiting when its task is cancelled (a
/// request's time limit cancels it), while the lookup goes on for the others and its answer is kept: the system
/// resolver blocks a thread for as long as it takes, which under load is seconds (measured here: 64 concurrent
/// lookups of a missing name took up to 20 s each). Every answer is judged again by the network policy on every use,
/// so a kept answer never lets a request past the address rules.
///
/// `LiveFetcher` keeps one for its policy's resolver; make one per process (or per fetcher) and share it.
public final class HostResolverCache: Sendable {
    /// How long answers are kept, and how many.
    public struct Configuration: Sendable, Hashable {
        /// How long an answer with addresses is kept. Default one minute (getaddrinfo does not give the record's
        /// TTL; a minute is what browsers keep one for).
        public var positiveLifetime: Duration
        /// How long "no such name" or "no address" is kept: shorter, so a name that appears is found soon.
        /// Default 5 seconds.
        public var negativeLifetime: Duration
        /// The most names kept; the least recently used go first. Default 1024.
        public var capacity: Int

        /// Creates a configuration; every argument defaults to the documented value.
        public init(
            positiveLifetime: Duration = .seconds(60),
            negativeLifetime: Duration = .seconds(5),
            capacity: Int = 1024
        ) {
            self.positiveLifetime = max(.zero, positiveLifetime)
            self.negativeLifetime = max(.zero, negativeLifetime)
            self.capacity = max(1, capacity)
        }
    }

    private typealias Answer = Result<[IPAddress], FetchError>

    private struct Entry: Sendable {
        var answer: Answer
        var expires: Date
    }

    private struct State {
        var answers: LRUStore<String, Entry>
        var lookups: [String: Waiters<Answer>] = [:]
    }

    /// The bounds in force.
    public let configuration: Configuration
    private let clock: FetchClock
    private let state: Mutex<State>

    /// An empty cache with `configuration`, timed by `clock`.
    public init(configuration: Configuration = Configuration(), clock: FetchClock = .system) {
        self.configuration = configuration
        self.clock = clock
        self.state = Mutex(State(answers: LRUStore(capacity: configuration.capacity)))
    }

    /// The addresses of `host` through `resolver`: a kept answer while it lasts, the answer of a lookup in flight, or
    /// a new lookup. Throws what the lookup threw (kept as long as a negative answer), or a time-out when the
    /// caller's task is cancelled while it waits.
    public func resolve(_ host: String, with resolver: HostResolver) async throws(FetchError) -> [IPAddress] {
        let name = host.lowercased()
        let now = clock.now
        enum Step {
            case answered(Answer)
            case wait(Waiters<Answer>, Waiters<Answer>.Ticket, starts: Bool)
        }
        let step = state.withLock { state -> Step in
            if let entry = state.answers.value(for: name) {
                if entry.expires > now { return .answered(entry.answer) }
                state.answers.remove(name)
            }
            if let lookup = state.lookups[name] { return .wait(lookup, lookup.enqueue(), starts: false) }
            let lookup = Waiters<Answer>()
            state.lookups[name] = lookup
            return .wait(lookup, lookup.enqueue(), starts: true)
        }
        switch step {
        case .answered(let answer):
            return try answer.get()
        case .wait(let lookup, let ticket, let starts):
            if starts { start(name, host: host, resolver: resolver, lookup: lookup) }
            switch await lookup.wait(ticket, until: nil, clock: clock) {
            case .value(let answer): return try answer.get()
            case .cancelled, .timedOut:
                throw FetchError(
                    .timeout,
                    url: host,
                    message: "The host '\(host)' was still being resolved when the request's time ran out."
                )
            }
        }
    }

    /// A resolver that answers through this cache from `resolver`.
    public func resolver(over resolver: HostResolver) -> HostResolver {
        HostResolver { host throws(FetchError) in try await self.resolve(host, with: resolver) }
    }

    /// The number of names with a kept answer (expired ones included until they are asked for again).
    public var count: Int { state.withLock { $0.answers.count } }

    /// Forgets every kept answer.
    public func removeAll() {
        state.withLock { $0.answers.removeAll() }
    }

    /// Looks `host` up in a task of its own, so that no caller's cancellation stops it, and hands the answer to
    /// everyone waiting.
    private func start(_ name: String, host: String, resolver: HostResolver, lookup: Waiters<Answer>) {
        Task { [self] in
            let answer: Answer
            do throws(FetchError) {
                answer = .success(try await resolver.resolve(host))
            } catch {
                answer = .failure(error)
            }
            let lifetime: Duration
            switch answer {
            case .success: lifetime = configuration.positiveLifetime
            case .failure(let error):
                // Only "this name has no address" is an answer about the name; anything else is not kept.
                lifetime = error.code == .unresolvableHost ? configuration.negativeLifetime : .zero
            }
            let expires = clock.now.addingTimeInterval(lifetime.timeInterval)
            state.withLock { state in
                state.lookups[name] = nil
                if lifetime > .zero {
                    state.answers.insert(Entry(answer: answer, expires: expires), for: name, cost: 1)
                }
            }
            lookup.handOffAll(answer)
        }
    }
}
