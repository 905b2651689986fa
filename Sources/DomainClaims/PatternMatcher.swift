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
struct PatternMatcher: Sendable {
    /// The elements between the pattern's `*`s (one segment when it has none).
    let segments: [[PatternElement]]
    /// A pattern that can never match (it names an undefined variable, or a variable with no values).
    let isNever: Bool
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
        segments = elements.split(separator: .star, omittingEmptySubsequences: false).map(Array.init)
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
        guard scalars.starts(with: prefix), scalars[(count - suffix.count)...].elementsEqual(suffix) else {
            return false
        }
        for (scalar, needed) in required where text.count(of: scalar) < needed { return false }
        let matching = SegmentMatching(text: scalars, ignoresCase: ignoresCase)
        if segments.count == 1 {
            return matching.advance(Positions(0), over: segments[0][...]).contains(count)
        }
        guard var position = matching.advance(Positions(0), over: segments[0][...]).minimum else { return false }
        for segment in segments.dropFirst().dropLast() {
            guard let end = matching.earliestEnd(of: segment, from: position) else { return false }
            position = end
        }
        return matching.endsAtEnd(segments[segments.count - 1], from: position)
    }
}

/// One URL part as the matcher reads it: its scalars, and how often each ASCII scalar occurs (for the prefilter).
struct MatchText: Sendable {
    let scalars: [UInt32]
    private let asciiCounts: [Int]

    init(_ text: String) {
        scalars = text.unicodeScalars.map(\.value)
        var counts = [Int](repeating: 0, count: 128)
        for scalar in scalars where scalar < 0x80 { counts[Int(scalar)] += 1 }
        asciiCounts = counts
    }

    func count(of scalar: UInt8) -> Int { asciiCounts[Int(scalar)] }
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
    let text: [UInt32]
    let ignoresCase: Bool

    /// Where `segment` can end when it starts at `position` or later, earliest first; nil when nowhere.
    func earliestEnd(of segment: [PatternElement], from position: Int) -> Int? {
        guard !segment.isEmpty else { return position }
        let length = PatternSequence.length(of: segment)
        var best: Int?
        var start = position
        while start + length.minimum <= text.count {
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
            current = advance(current, over: element)
            if current.minimum == nil { return current }
        }
        return current
    }

    private func advance(_ positions: Positions, over element: PatternElement) -> Positions {
        switch element {
        case .star:
            return positions.minimum.map { Positions(list: [], from: $0) } ?? positions
        case .scalar(let expected):
            return step(positions) { $0 == expected }
        case .any:
            return step(positions) { _ in true }
        case .character(let characterClass):
            return step(positions) { characterClass.contains($0, ignoringCase: ignoresCase) }
        case .choice(let choice):
            var ends: [Int] = []
            var from: Int?
            func add(_ start: Int) {
                for length in choice.packedLengths where start + length <= text.count {
                    if choice.packed[length]?.contains(PatternChoice.key(text[start..<start + length])) == true {
                        ends.append(start + length)
                    }
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
            let sorted = Set(ends).sorted()
            return Positions(list: from.map { limit in sorted.filter { $0 < limit } } ?? sorted, from: from)
        }
    }

    /// One scalar that passes `test`, from each position.
    private func step(_ positions: Positions, _ test: (UInt32) -> Bool) -> Positions {
        var next: [Int] = []
        for position in positions.list where position < text.count && test(text[position]) {
            next.append(position + 1)
        }
        if let from = positions.from, from < text.count {
            for position in from..<text.count where test(text[position]) { next.append(position + 1) }
        }
        return Positions(list: next, from: nil)
    }
}
