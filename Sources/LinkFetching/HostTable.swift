import Foundation
import Synchronization
import WebLinks

/// The state a ``PoliteFetcher`` keeps per host: requests in progress and those waiting for a slot, the rate
/// limiter's schedule, the host's circuit (``HostHealth``), and the one answer to "when may this host be asked
/// again" (``Hold``): after a `Retry-After`, or once it is down. Bounded (the one `LRUStore`): beyond
/// ``HostLimits/maxHosts``, the least recently used hosts with nothing to remember are forgotten; a host with requests
/// under way or waiting, a turn reserved, a hold or failures counted is pinned.
final class HostTable: Sendable {
    /// Until when a host may not be asked, and why.
    struct Hold: Sendable {
        /// Why a host is held.
        enum Kind: Sendable {
            /// It asked to be left alone (`429` or `503` with `Retry-After`).
            case backedOff
            /// It is taken for down; after `until`, one probe at a time may go.
            case down
        }

        var kind: Kind
        var until: Date
        var reason: String
    }

    struct Host {
        /// Requests holding a slot.
        var active = 0
        /// Requests waiting for a slot, oldest first: each is handed a slot, or told the host went down meanwhile.
        let waiters = Waiters<Turn>()
        /// The rate limiter's theoretical arrival time (GCRA): the next request conforms once `now` reaches it minus
        /// the burst allowance.
        var nextArrival: Date?
        /// Until when the host may not be asked (the later of a back-off and its down time).
        var hold: Hold?
        /// Its circuit.
        var health = HostHealth()

        func isIdle(at now: Date) -> Bool {
            active == 0 && waiters.count == 0 && (nextArrival ?? now) <= now && (hold?.until ?? now) <= now
                && health.isBlank
        }
    }

    /// What ``admit(_:at:)`` decides for a request.
    enum Admission {
        /// Send it.
        case send
        /// Send it as the probe of a host that is down: its answer decides whether the host is up again.
        case probe
        /// Do not send it: the host is held (a back-off, or down with no probe allowed now).
        case refused(Hold)
    }

    /// What a request waiting for a slot is handed.
    enum Turn: Sendable {
        /// A slot, given back by a request that ended.
        case slot
        /// No slot: the host went down while it waited (it fails at once instead of waiting on).
        case down
    }

    /// What ``claimSlot(_:at:)`` gives: a slot now, or a ticket to wait for one.
    enum Claim {
        case granted(active: Int)
        case queued(Waiters<Turn>, Waiters<Turn>.Ticket)
    }

    /// What recording a verdict changed, for the metrics.
    enum Change {
        case none
        /// The host is now down (again) until the date.
        case down(until: Date, reason: String)
        /// The host is up again.
        case up
    }

    private let hosts: Mutex<LRUStore<String, Host>>
    let limits: HostLimits

    init(limits: HostLimits) {
        self.limits = limits
        hosts = Mutex(LRUStore(capacity: limits.maxHosts))
    }

    /// Changes the state of `host` (a new one when it has none), which becomes the most recently used; hosts idle at
    /// `now` are forgotten beyond ``HostLimits/maxHosts``, least recently used first.
    private static func change<Result>(
        _ hosts: inout LRUStore<String, Host>,
        _ host: String,
        at now: Date,
        _ body: (inout Host) -> Result
    ) -> Result {
        // A known host is changed in place (one lookup to make it the newest); only a new one can overfill the map.
        if hosts.value(for: host) != nil {
            var result: Result?
            hosts.update(host) { result = body(&$0) }
            return result!
        }
        var state = Host()
        let result = body(&state)
        hosts.insert(state, for: host, cost: 1) { !$0.isIdle(at: now) }
        return result
    }

    /// Whether a request to `host` may be sent at `now`, and as what; a request admitted as the probe must be
    /// recorded (``record(_:for:probe:at:)``), so that the next probe may go.
    func admit(_ host: String, at now: Date) -> Admission {
        hosts.withLock { hosts in
            guard let state = hosts.peek(host) else { return .send }
            if let hold = state.hold, hold.until > now { return .refused(hold) }
            guard state.health.isDown else { return .send }
            guard !state.health.probing else {
                let reason = state.health.downReason ?? "it failed"
                return .refused(
                    Hold(kind: .down, until: now, reason: "\(reason); a probe is testing whether it is back")
                )
            }
            hosts.update(host) { $0.health.probing = true }
            return .probe
        }
    }

    /// How long a request to `host` waits for its answer (``HostHealth/patience(_:)``); nil: the request's whole time.
    func patience(of host: String, probe: Bool) -> Duration? {
        hosts.withLock { $0.peek(host)?.health.patience(limits.health, probe: probe) }
    }

    /// Counts what a request sent to `host` said about it (`probe`: it was the probe; `answeredAfter`: how long its
    /// answer took, when there was one) and returns what changed.
    func record(
        _ verdict: HostVerdict,
        for host: String,
        probe: Bool,
        answeredAfter answerTime: Duration? = nil,
        at now: Date
    ) -> Change {
        hosts.withLock { hosts in
            Self.change(&hosts, host, at: now) { state in
                if let answerTime, verdict == .fine { state.health.noteAnswer(after: answerTime) }
                let wasDown = state.health.isDown
                if let downTime = state.health.record(verdict, probe: probe, limits: limits.health) {
                    let until = now.addingTimeInterval(downTime.timeInterval)
                    let reason = state.health.downReason ?? "it failed"
                    if state.hold.map({ $0.until < until }) ?? true {
                        state.hold = Hold(kind: .down, until: until, reason: reason)
                    }
                    // Requests waiting for a slot of a host now down stop waiting: they would only be refused later.
                    state.waiters.handOffAll(.down)
                    return .down(until: until, reason: reason)
                }
                guard wasDown, !state.health.isDown else { return .none }
                if state.hold?.kind == .down { state.hold = nil }
                return .up
            }
        }
    }

    /// Leaves `host` alone until `until` (a `Retry-After`), unless it is held longer already.
    func backOff(_ host: String, until: Date, reason: String, at now: Date) {
        hosts.withLock { hosts in
            if let current = hosts.peek(host)?.hold, current.until >= until { return }
            Self.change(&hosts, host, at: now) { $0.hold = Hold(kind: .backedOff, until: until, reason: reason) }
        }
    }

    /// Takes a slot of `host` when one is free, or joins its queue.
    func claimSlot(_ host: String, at now: Date) -> Claim {
        hosts.withLock { hosts in
            Self.change(&hosts, host, at: now) { state in
                guard state.active < limits.maxConcurrentRequests else {
                    return .queued(state.waiters, state.waiters.enqueue())
                }
                state.active += 1
                return .granted(active: state.active)
            }
        }
    }

    /// Gives a slot of `host` back: to the oldest waiter, or to the pool. Returns the requests now active.
    func releaseSlot(_ host: String) -> Int {
        hosts.withLock { hosts in
            var active = 0
            hosts.update(host) { state in
                if !state.waiters.handOffFirst(.slot) { state.active = max(0, state.active - 1) }
                active = state.active
            }
            return active
        }
    }

    /// The requests of `host` holding a slot, and those waiting for one.
    func load(of host: String) -> (active: Int, waiting: Int) {
        hosts.withLock { hosts in (hosts.peek(host)?.active ?? 0, hosts.peek(host)?.waiters.count ?? 0) }
    }

    /// Whether `host` is taken for down now.
    func isDown(_ host: String) -> Bool {
        hosts.withLock { $0.peek(host)?.health.isDown ?? false }
    }

    /// Reserves the next turn of `host` under the rate limit and returns when it comes (at or after `now`), unless
    /// it comes after `latest`: then nothing is reserved and nil is returned.
    func reserveTurn(_ host: String, at now: Date, latest: Date) -> Date? {
        hosts.withLock { hosts in
            let interval = 1 / limits.requestsPerSecond
            let tolerance = interval * Double(limits.burst - 1)
            let arrival = max(hosts.peek(host)?.nextArrival ?? now, now)
            let turn = max(now, arrival.addingTimeInterval(-tolerance))
            guard turn <= latest else { return nil }
            Self.change(&hosts, host, at: now) { $0.nextArrival = arrival.addingTimeInterval(interval) }
            return turn
        }
    }
}
