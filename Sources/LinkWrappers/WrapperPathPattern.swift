/// The paths a wrapper's links have, as the catalog writes them, compared with the whole path of a link's canonical
/// text (before `?` and `#`; an empty path is `/`), byte for byte:
/// - `/l.php`: that path only;
/// - a `*` stands for one or more characters of one segment (not `/`): `/evergreen-assets/safelinks/*/atp-safelinks.html`;
/// - a final `**` stands for anything, `/` included, or nothing: `/v3/__**`, `/s/**`.
public struct WrapperPathPattern: Sendable, Hashable, CustomStringConvertible {
    /// One piece of a pattern.
    enum Piece: Sendable, Hashable {
        case literal([UInt8])
        /// One or more bytes other than `/`.
        case segment
        /// Anything to the end.
        case rest
    }

    /// The pattern as written.
    public let description: String
    let pieces: [Piece]

    /// Parses a pattern; nil when ``problem(with:)`` finds one.
    public init?(_ text: String) {
        guard Self.problem(with: text) == nil else { return nil }
        description = text
        var pieces: [Piece] = []
        var literal: [UInt8] = []
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "*") {
                if !literal.isEmpty { pieces.append(.literal(literal)) }
                literal = []
                let isRest = index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "*")
                pieces.append(isRest ? .rest : .segment)
                index += isRest ? 2 : 1
            } else {
                literal.append(bytes[index])
                index += 1
            }
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        self.pieces = pieces
    }

    /// Why `text` is not a path pattern, or nil when it is one.
    public static func problem(with text: String) -> String? {
        guard text.hasPrefix("/") else { return "a path pattern starts with \"/\", as in \"/url\"" }
        let forbidden = "?#%\\".unicodeScalars
        if let bad = text.unicodeScalars.first(where: { !$0.isASCII || $0.value <= 0x20 || forbidden.contains($0) }) {
            return
                "the path pattern \"\(text)\" contains \"\(bad.escaped(asASCII: true))\": write the path as a link has it, without query, fragment or escapes"
        }
        let bytes = Array(text.utf8)
        let doubleStar = bytes.indices.dropLast().first {
            bytes[$0] == UInt8(ascii: "*") && bytes[$0 + 1] == UInt8(ascii: "*")
        }
        if let doubleStar, doubleStar + 2 != bytes.count {
            return "\"**\" may only end a path pattern, as in \"/v3/__**\""
        }
        if text.contains("***") {
            return "\"***\" is not a path pattern: write \"*\" for a segment, \"**\" for the rest"
        }
        for segment in text.split(separator: "/")
        where !segment.hasSuffix("**") && segment.count(where: { $0 == "*" }) > 1 {
            return "the segment \"\(segment)\" has more than one \"*\""
        }
        return nil
    }

    /// Whether `path` (a link's path, starting with `/`) is one of the pattern's.
    public func matches(path: some Collection<UInt8>) -> Bool {
        Self.match(pieces[...], Array(path)[...])
    }

    private static func match(_ pieces: ArraySlice<Piece>, _ path: ArraySlice<UInt8>) -> Bool {
        guard let first = pieces.first else { return path.isEmpty }
        switch first {
        case .rest:
            return true
        case .literal(let bytes):
            guard path.starts(with: bytes) else { return false }
            return match(pieces.dropFirst(), path.dropFirst(bytes.count))
        case .segment:
            // One segment's characters: at most one `*` per segment, so this tries each end once.
            let slash = path.firstIndex(of: UInt8(ascii: "/")) ?? path.endIndex
            guard slash > path.startIndex else { return false }
            var end = path.startIndex + 1
            while end <= slash {
                if match(pieces.dropFirst(), path[end...]) { return true }
                end += 1
            }
            return false
        }
    }
}
