import Foundation
import Synchronization

/// The state a ``PoliteFetcher`` keeps per host: requests in progress and those waiting for a slot, the rate
/// limiter's schedule, and a back-off. Bounded: idle hosts are forgotten beyond ``HostLimits/maxHosts``.
final class HostTable: Sendable {
    struct Host {
        /// Requests holding a slot.
        var active = 0
        /// Requests waiting for a slot, oldest first.
        let waiters = Waiters<Void>()
        /// The rate limiter's theoretical arrival time (GCRA): the next request conforms once `now` reaches it minus
        /// the burst allowance.
        var nextArrival: Date?
        /// Until when the host asked to be left alone, and why.
        var backedOff: (until: Date, reason: String)?

        func isIdle(at now: Date) -> Bool {
            active == 0 && waiters.count == 0 && (nextArrival ?? now) <= now && (backedOff?.until ?? now) <= now
        }
    }

    /// What ``claimSlot(_:at:)`` gives: a slot now, or a ticket to wait for one.
    enum Claim {
        case granted(active: Int)
        case queued(Waiters<Void>, Waiters<Void>.Ticket)
    }

    private let hosts = Mutex<[String: Host]>([:])
    let limits: HostLimits

    init(limits: HostLimits) {
        self.limits = limits
    }

    /// The back-off of `host` in force at `now`.
    func backOff(of host: String, at now: Date) -> (until: Date, reason: String)? {
        hosts.withLock { hosts in
            guard let backedOff = hosts[host]?.backedOff, backedOff.until > now else { return nil }
            return backedOff
        }
    }

    /// Leaves `host` alone until `until`.
    func backOff(_ host: String, until: Date, reason: String) {
        hosts.withLock { hosts in
            if let current = hosts[host]?.backedOff, current.until >= until { return }
            hosts[host, default: Host()].backedOff = (until, reason)
        }
    }

    /// Takes a slot of `host` when one is free, or joins its queue.
    func claimSlot(_ host: String, at now: Date) -> Claim {
        hosts.withLock { hosts in
            if hosts[host] == nil && hosts.count >= limits.maxHosts {
                hosts = hosts.filter { !$0.value.isIdle(at: now) }
            }
            var state = hosts[host, default: Host()]
            defer { hosts[host] = state }
            guard state.active < limits.maxConcurrentRequests else {
                return .queued(state.waiters, state.waiters.enqueue())
            }
            state.active += 1
            return .granted(active: state.active)
        }
    }

    /// Gives a slot of `host` back: to the oldest waiter, or to the pool. Returns the requests now active.
    func releaseSlot(_ host: String) -> Int {
        hosts.withLock { hosts in
            guard var state = hosts[host] else { return 0 }
            if !state.waiters.handOffFirst(()) { state.active = max(0, state.active - 1) }
            hosts[host] = state
            return state.active
        }
    }

    /// The requests of `host` holding a slot, and those waiting for one.
    func load(of host: String) -> (active: Int, waiting: Int) {
        hosts.withLock { hosts in (hosts[host]?.active ?? 0, hosts[host]?.waiters.count ?? 0) }
    }

    /// Reserves the next turn of `host` under the rate limit and returns when it comes (at or after `now`), unless
    /// it comes after `latest`: then nothing is reserved and nil is returned.
    func reserveTurn(_ host: String, at now: Date, latest: Date) -> Date? {
        hosts.withLock { hosts in
            let interval = 1 / limits.requestsPerSecond
            let tolerance = interval * Double(limits.burst - 1)
            let arrival = max(hosts[host]?.nextArrival ?? now, now)
            let turn = max(now, arrival.addingTimeInterval(-tolerance))
            guard turn <= latest else { return nil }
            hosts[host, default: Host()].nextArrival = arrival.addingTimeInterval(interval)
            return turn
        }
    }
}
