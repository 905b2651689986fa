import DequeModule
import Foundation
import Synchronization

/// Tasks waiting for something other tasks hand out (a concurrency slot, the result of a request in flight): each
/// waits until it is handed a value, its task is cancelled, or its deadline passes, whichever comes first, and only
/// that first event resumes it. The one waiting primitive of the fetching layer; it never blocks a thread.
///
/// A waiter takes a ``Ticket`` first (``enqueue()``), so the caller can decide to wait and join the queue in one step
/// under its own lock; a value handed to a ticket that is not waiting yet is kept for it.
package final class Waiters<Value: Sendable>: Sendable {
    /// How a wait ended.
    package enum Outcome: Sendable {
        /// A value was handed over.
        case value(Value)
        /// The waiting task was cancelled.
        case cancelled
        /// The deadline passed.
        case timedOut
    }

    /// A place in the queue.
    package struct Ticket: Sendable, Hashable {
        fileprivate let id: Int
    }

    private enum Slot {
        case queued
        case waiting(CheckedContinuation<Outcome, Never>)
        case settled(Outcome)
    }

    private struct State {
        var nextID = 0
        var slots: [Int: Slot] = [:]
        /// Tickets still to be handed a value, oldest first (a deque: the oldest leaves in constant time).
        var order: Deque<Int> = []
    }

    private let state = Mutex(State())

    /// Creates an empty queue.
    package init() {}

    /// The number of tickets still waiting for a value.
    package var count: Int { state.withLock { $0.order.count } }

    /// Joins the queue.
    package func enqueue() -> Ticket {
        state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.slots[id] = .queued
            state.order.append(id)
            return Ticket(id: id)
        }
    }

    /// Waits with `ticket` until a value is handed to it, the task is cancelled, or `deadline` passes.
    package func wait(_ ticket: Ticket, until deadline: Date?, clock: FetchClock) async -> Outcome {
        let timer = deadline.map { deadline in
            Task { [self] in
                do { try await clock.sleep(until: deadline) } catch { return }
                settle(ticket.id, .timedOut)
            }
        }
        defer { timer?.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let early: Outcome? = state.withLock { state in
                    guard case .settled(let outcome)? = state.slots[ticket.id] else {
                        state.slots[ticket.id] = .waiting(continuation)
                        return nil
                    }
                    state.slots[ticket.id] = nil
                    return outcome
                }
                if let early { continuation.resume(returning: early) }
            }
        } onCancel: {
            settle(ticket.id, .cancelled)
        }
    }

    /// Hands `value` to the oldest ticket still waiting; false when there is none.
    @discardableResult
    package func handOffFirst(_ value: Value) -> Bool {
        let handed = state.withLock { state -> Int? in
            guard !state.order.isEmpty else { return nil }
            return state.order.removeFirst()
        }
        guard let handed else { return false }
        settle(handed, .value(value), dequeued: true)
        return true
    }

    /// Hands `value` to every ticket still waiting.
    package func handOffAll(_ value: Value) {
        let all = state.withLock { state -> [Int] in
            defer { state.order = [] }
            return Array(state.order)
        }
        for id in all { settle(id, .value(value), dequeued: true) }
    }

    /// Ends the wait of ticket `id` with `outcome`, unless it has ended already.
    private func settle(_ id: Int, _ outcome: Outcome, dequeued: Bool = false) {
        let continuation = state.withLock { state -> CheckedContinuation<Outcome, Never>? in
            guard let slot = state.slots[id] else { return nil }
            if !dequeued {
                // A cancellation or a deadline: only a ticket still queued can end this way.
                guard let index = state.order.firstIndex(of: id) else { return nil }
                state.order.remove(at: index)
            }
            switch slot {
            case .waiting(let continuation):
                state.slots[id] = nil
                return continuation
            case .queued:
                state.slots[id] = .settled(outcome)
                return nil
            case .settled:
                return nil
            }
        }
        continuation?.resume(returning: outcome)
    }
}
