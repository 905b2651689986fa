import Foundation

/// The first match of an action, as a trace shows it: its UTF-16 range and each group's text.
struct TraceGroups {
    var range: [Int]
    var texts: [String?]

    init(match: NSTextCheckingResult, in input: String) {
        range = [match.range.location, match.range.length]
        texts = (0..<match.numberOfRanges).map { group in
            Range(match.range(at: group), in: input).map { String(input[$0]) }
        }
    }

    /// From ICU's offsets of an ASCII link (UTF-16 offsets are byte offsets there): start and end of the match, then
    /// of each group, -1 for a group that did not take part.
    init(offsets: [Int], groupCount: Int, in text: String) {
        let bytes = Array(text.utf8)
        range = [offsets[0], offsets[1] - offsets[0]]
        texts = (0...groupCount).map { group in
            let start = offsets[2 * group]
            let end = offsets[2 * group + 1]
            guard start >= 0, end >= start, end <= bytes.count else { return nil }
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }
    }
}
