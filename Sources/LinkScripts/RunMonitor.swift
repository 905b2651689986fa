import Dispatch
import Foundation
import Synchronization

/// The watchdog of ``ScriptStopping/abandon(maximumAbandoned:)`` mode, with public API only: one thread per pool that
/// sleeps until the next run due to be held (one watchdog period after its start) or past its deadline, holds it or
/// abandons it, and sleeps again (for good while nothing runs).
final class RunMonitor: Sendable {
    private struct State {
        var tickets: [ObjectIdentifier: RunTicket] = [:]
        var started = false
        var stopped = false
    }

    private let period: Duration
    private let state = Mutex(State())
    private let wakeUp = DispatchSemaphore(value: 0)

    init(period: Duration) {
        self.period = period
    }

    /// Watches `ticket` until ``unwatch(_:)``; starts the monitor's thread on first use.
    func watch(_ ticket: RunTicket, pool: WorkerPool) {
        let start = state.withLock { state -> Bool in
            state.tickets[ObjectIdentifier(ticket)] = ticket
            defer { state.started = true }
            return !state.started
        }
        if start {
            let thread = Thread { [self] in loop(pool: pool) }
            thread.name = "switchyard.script-monitor"
            thread.start()
        }
        wakeUp.signal()
    }

    func unwatch(_ ticket: RunTicket) {
        _ = state.withLock { $0.tickets.removeValue(forKey: ObjectIdentifier(ticket)) }
    }

    func stop() {
        state.withLock { $0.stopped = true }
        wakeUp.signal()
    }

    private func loop(pool: WorkerPool) {
        while true {
            let (tickets, stopped) = state.withLock { (Array($0.tickets.values), $0.stopped) }
            if stopped { return }
            let now = ContinuousClock.now
            var next: ContinuousClock.Instant?
            for ticket in tickets {
                if now >= ticket.job.deadline {
                    let (abandoned, wasHeld) = ticket.abandon()
                    unwatch(ticket)
                    if abandoned { pool.abandon(ticket, wasHeld: wasHeld) }
                    continue
                }
                if !ticket.isHeld {
                    if now - ticket.start >= period {
                        ticket.hold()
                    } else {
                        next = min(next ?? ticket.start + period, ticket.start + period)
                    }
                }
                next = min(next ?? ticket.job.deadline, ticket.job.deadline)
            }
            if let next {
                let wait = max(.zero, next - ContinuousClock.now)
                let nanoseconds = wait.components.seconds * 1_000_000_000 + wait.components.attoseconds / 1_000_000_000
                _ = wakeUp.wait(timeout: .now() + .nanoseconds(Int(nanoseconds)))
            } else {
                wakeUp.wait()
            }
        }
    }
}
