/// What a component needs of a link, in plain values kept side by side for all the components of a detail: a decision
/// checks these first and touches a component's matchers only when they pass. With thousands of components the walk
/// then stays within the processor's caches (measured on the hostile benchmark file: from ~5 ms to ~0.1 ms a
/// decision for links its patterns cannot match).
struct ComponentFilter: Sendable {
    /// Length bounds and the last scalar a pattern needs (nil: none known).
    struct Part: Sendable {
        var minimum = 0
        var maximum = -1
        var last: UInt32?

        /// What `pattern` needs; nothing when it is absent or is one of two (a `/*` pattern also matches its parent).
        init(_ pattern: PatternMatcher?) {
            guard let pattern else { return }
            minimum = pattern.minimumLength
            maximum = pattern.maximumLength ?? -1
            last = pattern.suffix.last
        }

        init() {}

        var isVacuous: Bool { minimum == 0 && maximum < 0 && last == nil }

        func admits(_ scalars: [UInt32]) -> Bool {
            guard scalars.count >= minimum, maximum < 0 || scalars.count <= maximum else { return false }
            if let last, scalars.last != last { return false }
            return true
        }
    }

    /// Which reading of the link the component uses.
    let decoded: Bool
    let folded: Bool
    let path: Part
    /// The first scalars of the path pattern's literal start (up to 6), packed 21 bits each (its first is always `/`).
    let pathPrefix: (UInt64, UInt64)
    let pathPrefixCount: Int
    let query: Part
    let fragment: Part
    /// For a query dictionary: one item pattern that does not match the empty text (so the item must be there), by
    /// its length and last scalar; checked against every item value of the link.
    let item: Part
    let hasItem: Bool

    init(_ matcher: ComponentMatcher) {
        decoded = matcher.decoded
        folded = matcher.folded
        if let path = matcher.path, path.count == 1 {
            self.path = Part(path[0])
            pathPrefixCount = min(path[0].prefix.count, 6)
            pathPrefix = Self.pack(path[0].prefix[..<pathPrefixCount])
        } else {
            path = Part()
            pathPrefixCount = 0
            pathPrefix = (0, 0)
        }
        var item = Part()
        var hasItem = false
        switch matcher.query {
        case .whole(let pattern)?:
            query = Part(pattern)
        case .items(let items)?:
            query = Part()
            if let needed = items.first(where: { !$0.value.matchesEmpty }) {
                item = Part(needed.value)
                item.maximum = -1
                hasItem = true
            }
        case nil:
            query = Part()
        }
        self.item = item
        self.hasItem = hasItem
        fragment = Part(matcher.fragment)
    }

    /// False when the component cannot match the link; true when it may.
    func admits(_ parts: inout URLParts) -> Bool {
        if !path.isVacuous || pathPrefixCount > 1 {
            let scalars = parts.path(decoded: decoded, folded: folded).scalars
            guard path.admits(scalars) else { return false }
            if pathPrefixCount > 1 {
                guard scalars.count >= pathPrefixCount, Self.pack(scalars[..<pathPrefixCount]) == pathPrefix else {
                    return false
                }
            }
        }
        if !query.isVacuous && !query.admits(parts.query(decoded: decoded, folded: folded).scalars) { return false }
        if !fragment.isVacuous && !fragment.admits(parts.fragment(decoded: decoded, folded: folded).scalars) {
            return false
        }
        if hasItem {
            // The item must be there (its pattern does not match the empty text), and some value must fit.
            let values = parts.itemValues(decoded: decoded, folded: folded)
            guard values.longest >= item.minimum else { return false }
            if let last = item.last, !values.endsWith(last) { return false }
        }
        return true
    }
}

extension ComponentFilter {
    /// Up to six scalars, three to an integer (21 bits each).
    static func pack(_ scalars: ArraySlice<UInt32>) -> (UInt64, UInt64) {
        var packed: (UInt64, UInt64) = (0, 0)
        for (offset, scalar) in scalars.enumerated() {
            let bits = UInt64(scalar & 0x1F_FFFF) << UInt64(21 * (offset % 3))
            if offset < 3 { packed.0 |= bits } else { packed.1 |= bits }
        }
        return packed
    }
}

/// What the values of a link's query items are like, for ``ComponentFilter``: the longest, and the last scalars.
struct ItemValues {
    var longest = -1
    private var asciiLast: (UInt64, UInt64) = (0, 0)
    private var otherLast: Set<UInt32> = []

    init(_ values: some Sequence<MatchText>) {
        for value in values {
            longest = max(longest, value.scalars.count)
            guard let last = value.scalars.last else { continue }
            if last < 64 {
                asciiLast.0 |= 1 << UInt64(last)
            } else if last < 128 {
                asciiLast.1 |= 1 << UInt64(last - 64)
            } else {
                otherLast.insert(last)
            }
        }
    }

    /// Whether some value ends with `scalar`.
    func endsWith(_ scalar: UInt32) -> Bool {
        if scalar < 64 { return asciiLast.0 & (1 << UInt64(scalar)) != 0 }
        if scalar < 128 { return asciiLast.1 & (1 << UInt64(scalar - 64)) != 0 }
        return otherLast.contains(scalar)
    }
}
