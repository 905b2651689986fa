#if canImport(CICU)
import CICU
import Foundation

/// A regex compiled by ICU's C API, the engine `NSRegularExpression` runs on, for the resolver's hot path on Linux.
///
/// `NSRegularExpression.enumerateMatches` with `.reportProgress` (the only way Foundation offers to stop a runaway
/// match) calls a Swift closure at every start position, bridges the link to `NSString` and allocates a result
/// object per match: measured, a third of the compiled resolver's time. Here the link is handed to ICU once as UTF-16,
/// group offsets are read straight into a reused buffer, and the time budget is ICU's own match callback, which ICU
/// invokes every few thousand backtracking steps, so a catastrophic pattern is still stopped at its deadline.
///
/// Same library, same pattern flags (none) and the same `findNext` loop as Foundation's, so the matches are the
/// same; the differential test compares every opening with the `NSRegularExpression` loop.
final class ICUPattern: @unchecked Sendable {
    /// The number of capture groups.
    let groupCount: Int
    /// Compiled once; only ever cloned, never matched (a matcher holds per-match state).
    private let prototype: OpaquePointer
    /// Matchers not in use (one per thread that ran this pattern at the same time), guarded by `lock`.
    private var idle: [OpaquePointer] = []
    private let lock = NSLock()

    /// Why ICU refuses `pattern`, in words, with ICU's error name and where in the pattern; nil when it compiles.
    static func compileError(_ pattern: String) -> String? {
        let units = Array(pattern.utf16)
        var status: UErrorCode = 0
        var place = UParseError()
        let compiled = units.withUnsafeBufferPointer {
            swift_uregex_open($0.baseAddress, Int32($0.count), 0, &place, &status)
        }
        if let compiled { swift_uregex_close(compiled) }
        guard status > 0 else { return nil }
        let (name, words) = ICURegexError.describe(status)
        let offset = place.offset >= 0 ? " at offset \(place.offset)" : ""
        return "\(words)\(offset) (\(name))"
    }

    /// Compiles `pattern`; nil when ICU refuses it (``compileError(_:)`` says why).
    init?(_ pattern: String) {
        let units = Array(pattern.utf16)
        guard !units.isEmpty, units.count < Int(Int32.max) else { return nil }
        var status: UErrorCode = 0
        let compiled = units.withUnsafeBufferPointer {
            swift_uregex_open($0.baseAddress, Int32($0.count), 0, nil, &status)
        }
        guard let compiled else { return nil }
        let groups = swift_uregex_groupCount(compiled, &status)
        guard status <= 0 else {
            swift_uregex_close(compiled)
            return nil
        }
        prototype = compiled
        groupCount = Int(groups)
    }

    deinit {
        for matcher in idle { swift_uregex_close(matcher) }
        swift_uregex_close(prototype)
    }

    /// What one run over a text found.
    enum Outcome: Equatable {
        /// This many matches (0: none); their offsets were appended.
        case matches(Int)
        /// The deadline passed first.
        case timedOut
        /// ICU gave up (for example its backtracking stack overflowed): not the same as "no match".
        case failed
    }

    /// Every non-overlapping match in `text` (UTF-16), as `stringByReplacingMatches` sees them: for each match,
    /// `2 × (groupCount + 1)` offsets (start and end of the whole match, then of each group; -1 for a group that did
    /// not take part) are appended to `offsets`. Stops at `deadline`, or after the first match when `firstOnly`.
    func matches(
        in text: UnsafeBufferPointer<UInt16>,
        deadline: ContinuousClock.Instant,
        into offsets: inout [Int],
        firstOnly: Bool = false
    ) -> Outcome {
        guard text.count < Int(Int32.max) else { return .failed }
        // ICU rejects a null text pointer, which an empty buffer may have.
        guard let base = text.baseAddress else {
            var empty: UInt16 = 0
            return withUnsafePointer(to: &empty) {
                matches(
                    in: UnsafeBufferPointer(start: $0, count: 0),
                    deadline: deadline,
                    into: &offsets,
                    firstOnly: firstOnly
                )
            }
        }
        guard let matcher = checkOut() else { return .failed }
        defer { checkIn(matcher) }
        var status: UErrorCode = 0
        var found = 0
        withUnsafePointer(to: deadline) { deadlinePointer in
            swift_uregex_setMatchCallback(matcher, stopAfterDeadline, UnsafeRawPointer(deadlinePointer), &status)
            swift_uregex_setText(matcher, base, Int32(text.count), &status)
            while status <= 0, swift_uregex_findNext(matcher, &status) != 0 {
                found += 1
                for group in 0...Int32(groupCount) {
                    offsets.append(Int(swift_uregex_start(matcher, group, &status)))
                    offsets.append(Int(swift_uregex_end(matcher, group, &status)))
                }
                if firstOnly { break }
            }
            // The context pointer dies with this scope: no idle matcher may keep it.
            var ignored: UErrorCode = 0
            swift_uregex_setMatchCallback(matcher, nil, nil, &ignored)
        }
        // Stopped by the callback (U_REGEX_STOPPED_BY_CALLER) exactly when the deadline has passed.
        if status > 0 { return ContinuousClock.now >= deadline ? .timedOut : .failed }
        return .matches(found)
    }

    private func checkOut() -> OpaquePointer? {
        lock.lock()
        defer { lock.unlock() }
        if let reused = idle.popLast() { return reused }
        // Cloned under the lock too: rare (once per thread), and ICU's pattern reference count is then never
        // touched by two threads at once.
        var status: UErrorCode = 0
        let clone = swift_uregex_clone(prototype, &status)
        guard status <= 0 else {
            if let clone { swift_uregex_close(clone) }
            return nil
        }
        return clone
    }

    private func checkIn(_ matcher: OpaquePointer) {
        lock.lock()
        idle.append(matcher)
        lock.unlock()
    }
}

/// ICU's match callback: keep going while the deadline (the context) is ahead.
private let stopAfterDeadline: @convention(c) (UnsafeRawPointer?, Int32) -> UBool = { context, _ in
    guard let context else { return 1 }
    return ContinuousClock.now < context.load(as: ContinuousClock.Instant.self) ? 1 : 0
}
#endif
