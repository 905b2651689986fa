/// An entity tag (RFC 9110 §8.8.3): an opaque text, strong (`"…"`) or weak (`W/"…"`), as `ETag` sends it and
/// `If-None-Match` lists it. The HTTP cache's revalidation and the server's conditional answers read and compare
/// tags through this type alone.
package struct EntityTag: Sendable, Hashable {
    /// The tag's text, without its quotes.
    package var opaque: String
    /// Whether the tag is weak (`W/`): the same meaning, maybe not the same bytes.
    package var isWeak: Bool

    /// A tag of that opaque text.
    package init(opaque: String, weak: Bool = false) {
        self.opaque = opaque
        isWeak = weak
    }

    /// The tag an `ETag` value holds (white space around it aside), or nil when it is empty or holds more. Read
    /// leniently, as browsers do: a tag its server forgot to quote (`ETag: abc`) is the strong tag `"abc"`.
    package init?(field: String) {
        let value = field.trimmingOWS
        var rest = value
        if let tag = Self.take(from: &rest), rest.isEmpty {
            self = tag
        } else if !value.isEmpty, !value.contains(where: { $0 == "\"" || $0 == "," || $0 == " " || $0 == "\t" }) {
            self.init(opaque: String(value))
        } else {
            return nil
        }
    }

    /// The tag as `ETag` sends it.
    package var header: String { (isWeak ? "W/" : "") + "\"" + opaque + "\"" }

    /// Weak comparison (RFC 9110 §8.8.3.2): the same opaque text, whether either is weak or not (caches that compress
    /// mark the tags of what they changed weak).
    package func matchesWeakly(_ other: EntityTag) -> Bool { opaque == other.opaque }

    /// What a list field (`If-None-Match`, every field line) holds: `*` (any), or its tags, read up to the first
    /// malformed member. Nil when there is no field.
    package static func list(_ values: [String]) -> List? {
        guard !values.isEmpty else { return nil }
        var tags: [EntityTag] = []
        for value in values {
            var rest = Substring(value)
            while true {
                rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
                if rest.isEmpty { break }
                if rest.first == "*" { return .any }
                guard let tag = take(from: &rest) else { break }
                tags.append(tag)
            }
        }
        return .tags(tags)
    }

    /// A list field's value: `*`, or the tags it lists.
    package enum List: Sendable, Equatable {
        /// `*`: any current representation.
        case any
        /// The tags listed, in order.
        case tags([EntityTag])

        /// Whether `tag` is listed, by weak comparison (`*` lists no tag in particular).
        package func lists(_ tag: EntityTag) -> Bool {
            guard case .tags(let tags) = self else { return false }
            return tags.contains { $0.matchesWeakly(tag) }
        }
    }

    /// Reads one tag at the front of `rest` and drops it, or nil (and `rest` unchanged) when there is none.
    private static func take(from rest: inout Substring) -> EntityTag? {
        var text = rest
        let weak = text.hasPrefix("W/")
        if weak { text = text.dropFirst(2) }
        guard text.first == "\"", let close = text.dropFirst().firstIndex(of: "\"") else { return nil }
        let tag = EntityTag(opaque: String(text[text.index(after: text.startIndex)..<close]), weak: weak)
        rest = text[text.index(after: close)...]
        return tag
    }
}
