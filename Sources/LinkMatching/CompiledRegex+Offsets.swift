import Foundation

/// Where a regex matched in a UTF-16 text: for each match, `2 × (groupCount + 1)` offsets (start and end of the
/// whole match, then of each group; -1 for a group that did not take part).
package struct RegexMatchOffsets: Sendable, Equatable {
    /// The flat offsets, match after match.
    package var offsets: [Int]
    /// The number of capture groups of the regex.
    package let groupCount: Int

    /// The number of matches.
    package var count: Int { offsets.count / (2 * (groupCount + 1)) }

    /// The UTF-16 range of group `group` (0: the whole match) of match `match`, nil when the group did not take part.
    package func range(_ match: Int, group: Int = 0) -> Range<Int>? {
        // A group the pattern does not have (a redirection without a capture group) is no range, not a trap.
        guard group >= 0, group <= groupCount, match >= 0 else { return nil }
        let base = match * 2 * (groupCount + 1) + 2 * group
        guard base + 1 < offsets.count else { return nil }
        let start = offsets[base]
        let end = offsets[base + 1]
        return start < 0 || end < start ? nil : start..<end
    }
}

extension CompiledRegex {
    /// The matches of the pattern in `utf16` (the UTF-16 of `text`), ICU's C API where it is at hand and Foundation's
    /// object elsewhere: only the first when `firstOnly`, every non-overlapping one otherwise; nil when the deadline
    /// passed or ICU gave up (callers treat that as "no match" and say so).
    package func matchOffsets(
        in text: String,
        utf16: [UInt16],
        firstOnly: Bool,
        deadline: ContinuousClock.Instant
    ) -> RegexMatchOffsets? {
        #if canImport(CICU)
        if let direct {
            var offsets: [Int] = []
            let outcome = utf16.withUnsafeBufferPointer {
                direct.matches(in: $0, deadline: deadline, into: &offsets, firstOnly: firstOnly)
            }
            guard case .matches = outcome else { return nil }
            return RegexMatchOffsets(offsets: offsets, groupCount: direct.groupCount)
        }
        #endif
        let outcome = firstOnly ? firstMatch(in: text, deadline: deadline) : matches(in: text, deadline: deadline)
        guard case .matches(let found) = outcome else { return nil }
        var offsets: [Int] = []
        for result in found {
            for group in 0...groupCount {
                let range = result.range(at: group)
                offsets.append(range.location == NSNotFound ? -1 : range.location)
                offsets.append(range.location == NSNotFound ? -1 : range.location + range.length)
            }
        }
        return RegexMatchOffsets(offsets: offsets, groupCount: groupCount)
    }

}
