import Foundation

/// The result of running a regex over an input under a deadline.
package enum MatchOutcome {
    /// Every non-overlapping match, in order (empty: no match).
    case matches([NSTextCheckingResult])
    /// The deadline passed first.
    case timedOut
    /// ICU gave up (for example its backtracking stack overflowed on a huge input): not the same as "no match".
    case failed
}

extension CompiledRegex {
    /// All matches of the pattern in `input`, stopping at `deadline`.
    ///
    /// `NSRegularExpression` on Linux has no time limit of its own; `.reportProgress` makes ICU call back while it
    /// works, so a catastrophic pattern (the real v5 Webex rule takes 1.2 s on a short dotted URL) is stopped at
    /// the deadline. `.reportCompletion` surfaces ICU's internal errors, which `firstMatch` reports as "no match".
    package func matches(in input: String, deadline: ContinuousClock.Instant) -> MatchOutcome {
        enumerateMatches(in: input, options: [], firstOnly: false, deadline: deadline)
    }

    /// The first match anywhere in `input`, if any, stopping at `deadline` (a script's guard: LinkScripts).
    package func firstMatch(in input: String, deadline: ContinuousClock.Instant) -> MatchOutcome {
        enumerateMatches(in: input, options: [], firstOnly: true, deadline: deadline)
    }

    /// The match at the very start of `input`, if any (redirect rules), stopping at `deadline`.
    package func firstMatchAtStart(of input: String, deadline: ContinuousClock.Instant) -> MatchOutcome {
        enumerateMatches(in: input, options: .anchored, firstOnly: true, deadline: deadline)
    }

    private func enumerateMatches(
        in input: String,
        options: NSRegularExpression.MatchingOptions,
        firstOnly: Bool,
        deadline: ContinuousClock.Instant
    ) -> MatchOutcome {
        guard let expression else { return .failed }
        var found: [NSTextCheckingResult] = []
        var timedOut = false
        var failed = false
        var callbacks = 0
        let clock = ContinuousClock()
        expression.enumerateMatches(
            in: input,
            options: options.union([.reportProgress, .reportCompletion]),
            range: NSRange(input.startIndex..., in: input)
        ) { result, flags, stop in
            if let result {
                found.append(result)
                if firstOnly {
                    stop.pointee = true
                    return
                }
            }
            if flags.contains(.internalError) {
                failed = true
                stop.pointee = true
                return
            }
            // ICU calls back very often; reading the clock every 16th time keeps the overhead small while a
            // runaway pattern is still stopped within microseconds of its deadline.
            callbacks &+= 1
            if callbacks & 15 == 0 || result != nil, clock.now > deadline {
                timedOut = true
                stop.pointee = true
            }
        }
        if failed { return .failed }
        if timedOut { return .timedOut }
        return .matches(found)
    }

    /// `stringByReplacingMatches` computed from matches already found, so one regex run serves every format of an
    /// action (the differential test checks it equals `replacingMatches(in:with:)`).
    package func render(_ template: String, matches: [NSTextCheckingResult], in input: String) -> String {
        let utf16 = input.utf16
        var output = ""
        var cursor = 0
        for match in matches {
            let range = match.range
            if range.location > cursor, let slice = Self.slice(utf16, cursor, range.location) { output += slice }
            output += replacement(for: match, in: input, template: template)
            cursor = range.location + range.length
        }
        if cursor < utf16.count, let tail = Self.slice(utf16, cursor, utf16.count) { output += tail }
        return output
    }

    private static func slice(_ utf16: String.UTF16View, _ from: Int, _ to: Int) -> String? {
        let start = utf16.index(utf16.startIndex, offsetBy: from)
        let end = utf16.index(utf16.startIndex, offsetBy: to)
        return String(utf16[start..<end])
    }
}
