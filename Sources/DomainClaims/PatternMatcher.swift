/// A compiled AASA pattern: decides whether a whole URL part (already decoded and folded as its component says)
/// matches, without backtracking.
///
/// The pattern is cut at its `*`s into segments. The first segment is matched at the start, the last one at the end,
/// and each one between is placed where it ends earliest after the one before it: since a `*` follows it, any later
/// placement reaches only positions the earliest one also reaches, so no choice is ever revisited. A segment is
/// matched by carrying the set of positions it can have reached (variables with alternatives of several lengths give
/// several), so the cost is at most the URL's length times the segment's length: linear in the URL, whatever the
/// pattern (`*a*a*a…b` included). Before that, cheap checks refuse most texts: length bounds, the literal text the
/// pattern starts and ends with, and how many times each ASCII character the pattern needs occurs.
final class PatternMatcher: Sendable {
    /// The elements between the pattern's `*`s (one segment when it has none).
    let segments: [[PatternElement]]
    /// Each segment's length when every element of it takes exactly one scalar (most do), else nil.
    let fixedLengths: [Int?]
    /// Those segments as steps (empty for the others).
    let fixedSteps: [[FixedStep]]
    /// A pattern that can never match (it names an undefined variable, or a variable with no values).
    let isNever: Bool
    /// Whether the empty text matches (a query item the link lacks reads as empty).
    let matchesEmpty: Bool
    let minimumLength: Int
    let maximumLength: Int?
    /// The scalars the pattern starts with and ends with, before and after any other element.
    let prefix: [UInt32]
    let suffix: [UInt32]
    /// Each ASCII scalar the pattern needs outside variables, with how many times (at most 16 entries).
    let required: [(scalar: UInt8, count: Int)]
    /// Whether letters were folded to lower case (the text must be folded the same way).
    let ignoresCase: Bool

    init(_ elements: [PatternElement], ignoresCase: Bool) {
        self.ignoresCase = ignoresCase
        isNever = elements.contains { element in
            if case .choice(let choice) = element { return choice.isEmpty }
            return false
        }
        matchesEmpty = !isNever && PatternSequence.matchesEmpty(elements)
        segments = elements.split(separator: .star, omittingEmptySubsequences: false).map(Array.init)
        let steps = segments.map { segment in segment.compactMap(FixedStep.init) }
        fixedLengths = zip(segments, steps).map { $0.count == $1.count ? $1.count : nil }
        fixedSteps = zip(segments, steps).map { $0.count == $1.count ? $1 : [] }
        let length = PatternSequence.length(of: elements)
        minimumLength = length.minimum
        maximumLength = length.maximum
        prefix = Self.scalars(elements)
        suffix = Self.scalars(elements.reversed()).reversed()
        var counts: [UInt8: Int] = [:]
        for case .scalar(let scalar) in elements where scalar < 0x80 { counts[UInt8(scalar), default: 0] += 1 }
        required = counts.sorted { $0.value > $1.value }.prefix(16).map { ($0.key, $0.value) }
    }

    private static func scalars(_ elements: some Sequence<PatternElement>) -> [UInt32] {
        var result: [UInt32] = []
        for element in elements {
            guard case .scalar(let scalar) = element else { break }
            result.append(scalar)
        }
        return result
    }

    /// Whether the whole of `text` matches.
    func matches(_ text: MatchText) -> Bool {
        let scalars = text.scalars
        let count = scalars.count
        guard !isNever, count >= minimumLength, maximumLength.map({ count <= $0 }) ?? true else { return false }
        guard Self.hasPrefix(scalars, prefix), Self.hasSuffix(scalars, suffix) else { return false }
        for (scalar, needed) in required where text.count(of: scalar) < needed { return false }
        let matching = SegmentMatching(source: text, ignoresCase: ignoresCase)
        if segments.count == 1 {
            if let length = fixedLengths[0] { return length == count && matching.matchesFixed(fixedSteps[0], at: 0) }
            return matching.advance(Positions(0), over: segments[0][...]).contains(count)
        }
        var position: Int
        if let length = fixedLengths[0] {
            guard matching.matchesFixed(fixedSteps[0], at: 0) else { return false }
            position = length
        } else {
            guard let end = matching.advance(Positions(0), over: segments[0][...]).minimum else { return false }
            position = end
        }
        for index in 1..<segments.count - 1 {
            guard
                let end = matching.earliestEnd(
                    of: segments[index],
                    steps: fixedSteps[index],
                    fixedLength: fixedLengths[index],
                    from: position
                )
            else { return false }
            position = end
        }
        let last = segments.count - 1
        if let length = fixedLengths[last] {
            return count - length >= position && matching.matchesFixed(fixedSteps[last], at: count - length)
        }
        return matching.endsAtEnd(segments[last], from: position)
    }

    private static func hasPrefix(_ scalars: [UInt32], _ prefix: [UInt32]) -> Bool {
        guard prefix.count <= scalars.count else { return false }
        for index in prefix.indices where scalars[index] != prefix[index] { return false }
        return true
    }

    private static func hasSuffix(_ scalars: [UInt32], _ suffix: [UInt32]) -> Bool {
        guard suffix.count <= scalars.count else { return false }
        let offset = scalars.count - suffix.count
        for index in suffix.indices where scalars[offset + index] != suffix[index] { return false }
        return true
    }
}

/// One URL part as the matcher reads it: its scalars, how often each ASCII scalar occurs (for the prefilter), and,
/// made on first use, where each scalar a segment starts with next occurs (so placing a segment skips straight to its
/// candidates: `*a*a*a…` costs one look-up per `a`, whatever the text). Made and used within one decision.
final class MatchText {
    let scalars: [UInt32]
    private var asciiCounts: [Int32] = []
    private var next: [UInt32: [Int32]] = [:]

    init(_ text: String) {
        scalars = text.unicodeScalars.map(\.value)
    }

    init(scalars: [UInt32]) {
        self.scalars = scalars
    }

    /// How many times `scalar` occurs (short texts are counted directly; longer ones once, on first use).
    func count(of scalar: UInt8) -> Int {
        if scalars.count <= 64 {
            var count = 0
            for each in scalars where each == UInt32(scalar) { count += 1 }
            return count
        }
        if asciiCounts.isEmpty {
            var counts = [Int32](repeating: 0, count: 128)
            for scalar in scalars where scalar < 0x80 { counts[Int(scalar)] += 1 }
            asciiCounts = counts
        }
        return Int(asciiCounts[Int(scalar)])
    }

    /// The first position at or after `position` that holds `scalar`, or the text's length when none does.
    func nextOccurrence(of scalar: UInt32, from position: Int) -> Int {
        guard position < scalars.count else { return scalars.count }
        if let table = next[scalar] { return Int(table[position]) }
        var table = [Int32](repeating: Int32(scalars.count), count: scalars.count + 1)
        var index = scalars.count - 1
        while index >= 0 {
            table[index] = scalars[index] == scalar ? Int32(index) : table[index + 1]
            index -= 1
        }
        next[scalar] = table
        return Int(table[position])
    }
}

/// Positions in the text a part of a pattern can have reached: the sorted `list`, and every position from `from` on
/// when it is set (after a `*` inside a variable's value).
struct Positions {
    var list: [Int]
    var from: Int?

    init(_ position: Int) {
        list = [position]
        from = nil
    }

    init(list: [Int], from: Int?) {
        self.list = list
        self.from = from
    }

    var minimum: Int? { list.first ?? from }

    func contains(_ position: Int) -> Bool {
        if let from, position >= from { return true }
        return list.contains(position)
    }
}

/// The position-set steps of ``PatternMatcher`` over one text.
struct SegmentMatching {
    let source: MatchText
    let text: [UInt32]
    let ignoresCase: Bool

    init(source: MatchText, ignoresCase: Bool) {
        self.source = source
        text = source.scalars
        self.ignoresCase = ignoresCase
    }

    /// Whether the steps of a one-scalar-per-element segment match the text from `start`.
    func matchesFixed(_ steps: [FixedStep], at start: Int) -> Bool {
        guard start >= 0, start + steps.count <= text.count else { return false }
        var index = start
        for step in steps {
            let scalar = text[index]
            switch step.kind {
            case .scalar: if scalar != step.value { return false }
            case .any: break
            case .character:
                guard let characterClass = CharacterClass(rawValue: step.value),
                    characterClass.contains(scalar, ignoringCase: ignoresCase)
                else { return false }
            }
            index += 1
        }
        return true
    }

    /// Where `segment` can end when it starts at `position` or later, earliest first; nil when nowhere.
    func earliestEnd(of segment: [PatternElement], steps: [FixedStep], fixedLength: Int?, from position: Int) -> Int? {
        guard !segment.isEmpty else { return position }
        if let fixedLength {
            var start = position
            while start + fixedLength <= text.count {
                if steps[0].kind == .scalar {
                    start = source.nextOccurrence(of: steps[0].value, from: start)
                    guard start + fixedLength <= text.count else { return nil }
                }
                if matchesFixed(steps, at: start) { return start + fixedLength }
                start += 1
            }
            return nil
        }
        let length = PatternSequence.length(of: segment)
        var best: Int?
        var start = position
        while start + length.minimum <= text.count {
            if case .scalar(let first) = segment[0] {
                start = source.nextOccurrence(of: first, from: start)
                guard start + length.minimum <= text.count else { break }
            }
            if let best, start + length.minimum >= best { break }
            if let end = advance(Positions(start), over: segment[...]).minimum {
                best = min(best ?? end, end)
                if length.maximum == length.minimum { break }
            }
            start += 1
        }
        return best
    }

    /// Whether `segment` can end exactly at the end of the text when it starts at `position` or later.
    func endsAtEnd(_ segment: [PatternElement], from position: Int) -> Bool {
        guard !segment.isEmpty else { return true }
        let length = PatternSequence.length(of: segment)
        let lowest = length.maximum.map { max(position, text.count - $0) } ?? position
        let highest = text.count - length.minimum
        guard lowest <= highest else { return false }
        for start in lowest...highest where advance(Positions(start), over: segment[...]).contains(text.count) {
            return true
        }
        return false
    }

    /// The positions reachable from `positions` through `elements`.
    func advance(_ positions: Positions, over elements: ArraySlice<PatternElement>) -> Positions {
        var current = positions
        for element in elements {
            advance(&current, over: element)
            if current.minimum == nil { return current }
        }
        return current
    }

    private func advance(_ positions: inout Positions, over element: PatternElement) {
        switch element {
        case .star:
            if let minimum = positions.minimum { positions = Positions(list: [], from: minimum) }
        case .scalar(let expected):
            step(&positions) { $0 == expected }
        case .any:
            step(&positions) { _ in true }
        case .character(let characterClass):
            step(&positions) { characterClass.contains($0, ignoringCase: ignoresCase) }
        case .choice(let choice):
            positions = advance(positions, over: choice)
        }
    }

    private func advance(_ positions: Positions, over choice: PatternChoice) -> Positions {
        var ends: [Int] = []
        var from: Int?
        func add(_ start: Int) {
            for length in choice.packedLengths where start + length <= text.count {
                if choice.packed[length].contains(PatternChoice.key(text[start..<start + length])) {
                    ends.append(start + length)
                }
            }
            for literal in choice.literals where start + literal.count <= text.count {
                var index = 0
                while index < literal.count && text[start + index] == literal[index] { index += 1 }
                if index == literal.count { ends.append(start + literal.count) }
            }
            for alternative in choice.patterns {
                let reached = advance(Positions(start), over: alternative[...])
                ends.append(contentsOf: reached.list)
                if let reachedFrom = reached.from { from = min(from ?? reachedFrom, reachedFrom) }
            }
        }
        for start in positions.list { add(start) }
        if let start = positions.from {
            for position in start...text.count {
                if let from, position >= from { break }
                add(position)
            }
        }
        ends.sort()
        var unique: [Int] = []
        unique.reserveCapacity(ends.count)
        for end in ends where end != unique.last && from.map({ end < $0 }) ?? true { unique.append(end) }
        return Positions(list: unique, from: from)
    }

    /// One scalar that passes `test`, from each position (in place when there is no `from`: no allocation).
    private func step(_ positions: inout Positions, _ test: (UInt32) -> Bool) {
        guard let from = positions.from else {
            var kept = 0
            for index in positions.list.indices {
                let position = positions.list[index]
                if position < text.count && test(text[position]) {
                    positions.list[kept] = position + 1
                    kept += 1
                }
            }
            positions.list.removeLast(positions.list.count - kept)
            return
        }
        var next = positions.list.filter { $0 < text.count && test(text[$0]) }.map { $0 + 1 }
        if from < text.count {
            for position in from..<text.count where test(text[position]) { next.append(position + 1) }
        }
        positions = Positions(list: next, from: nil)
    }
}
