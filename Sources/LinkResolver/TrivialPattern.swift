import Foundation

/// Browser rules use a handful of trivial patterns (`.+`, `(https?.*)`, `https?://(.*)$`, `http(s?.*)$`, …) that
/// accept almost every link. Running them through `NSRegularExpression` dominated the naive loop's cost, so these
/// shapes are recognised at compile time and matched and rendered directly, with identical results (checked by the
/// differential test): a literal prefix whose characters may be optional (`s?`), capture groups, then `.*` or `.+`
/// to the end of the input.
struct TrivialPattern: Sendable {
    private enum Item: Equatable {
        case literal(UInt8, optional: Bool)
        case open(group: Int?)
        case close
        case rest(minimum: Int)
    }

    private let items: [Item]
    /// The number of capture groups.
    let groupCount: Int

    /// Recognises `pattern`, or returns nil when it is not one of the trivial shapes.
    init?(_ pattern: String) {
        var items: [Item] = []
        var groups = 0
        var depth = 0
        var bytes = Array(pattern.utf8)[...]
        var sawRest = false
        var consumesSomething = false
        while let byte = bytes.first {
            bytes = bytes.dropFirst()
            if sawRest, byte != UInt8(ascii: ")"), byte != UInt8(ascii: "$") { return nil }
            switch byte {
            case UInt8(ascii: "("):
                if bytes.starts(with: "?:".utf8) {
                    bytes = bytes.dropFirst(2)
                    items.append(.open(group: nil))
                } else {
                    if bytes.first == UInt8(ascii: "?") { return nil }
                    groups += 1
                    items.append(.open(group: groups))
                }
                depth += 1
            case UInt8(ascii: ")"):
                guard depth > 0 else { return nil }
                depth -= 1
                items.append(.close)
            case UInt8(ascii: "."):
                guard let quantifier = bytes.first, quantifier == UInt8(ascii: "*") || quantifier == UInt8(ascii: "+")
                else { return nil }
                bytes = bytes.dropFirst()
                if bytes.first == UInt8(ascii: "?") || bytes.first == UInt8(ascii: "+") { return nil }
                items.append(.rest(minimum: quantifier == UInt8(ascii: "+") ? 1 : 0))
                if quantifier == UInt8(ascii: "+") { consumesSomething = true }
                sawRest = true
            case UInt8(ascii: "$"):
                guard bytes.allSatisfy({ $0 == UInt8(ascii: ")") }) else { return nil }
            case UInt8(ascii: "?"):
                guard case .literal(let previous, optional: false)? = items.last else { return nil }
                items[items.count - 1] = .literal(previous, optional: true)
            case UInt8(ascii: "\\"):
                guard let escaped = bytes.first, escaped == UInt8(ascii: ".") || escaped == UInt8(ascii: "/") else {
                    return nil
                }
                bytes = bytes.dropFirst()
                items.append(.literal(escaped, optional: false))
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: ":"), UInt8(ascii: "/"):
                items.append(.literal(byte, optional: false))
            default:
                return nil
            }
        }
        // Must end by consuming the rest of the input, and must consume at least one character (so there is never
        // a second, empty match at the end).
        let requiredLiteral = items.contains { if case .literal(_, optional: false) = $0 { return true } else { return false } }
        guard sawRest, depth == 0, consumesSomething || requiredLiteral else { return nil }
        self.items = items
        self.groupCount = groups
    }

    /// The match: its start (UTF-8 offset) and each group's UTF-8 range; the match always runs to the end.
    struct Match {
        var start: Int
        var groups: [Range<Int>?]
    }

    /// The leftmost match in `input` (which must hold no line terminator), if any.
    func firstMatch(in bytes: [UInt8]) -> Match? {
        for start in 0...bytes.count {
            var groups = [Range<Int>?](repeating: nil, count: groupCount + 1)
            if attempt(items[...], bytes, start, start, &groups, openStack: []) {
                groups[0] = start..<bytes.count
                return Match(start: start, groups: groups)
            }
        }
        return nil
    }

    /// Greedy backtracking over the few optional characters; `rest` accepts whatever remains.
    private func attempt(
        _ remaining: ArraySlice<Item>, _ bytes: [UInt8], _ position: Int, _ start: Int, _ groups: inout [Range<Int>?],
        openStack: [(group: Int?, start: Int)]
    ) -> Bool {
        guard let item = remaining.first else { return true }
        let rest = remaining.dropFirst()
        switch item {
        case .literal(let byte, let optional):
            if position < bytes.count, bytes[position] == byte,
                attempt(rest, bytes, position + 1, start, &groups, openStack: openStack)
            {
                return true
            }
            return optional && attempt(rest, bytes, position, start, &groups, openStack: openStack)
        case .open(let group):
            return attempt(rest, bytes, position, start, &groups, openStack: openStack + [(group, position)])
        case .close:
            guard let open = openStack.last else { return false }
            let saved = open.group.map { groups[$0] } ?? nil
            if let group = open.group { groups[group] = open.start..<position }
            if attempt(rest, bytes, position, start, &groups, openStack: Array(openStack.dropLast())) { return true }
            if let group = open.group { groups[group] = saved }
            return false
        case .rest(let minimum):
            guard bytes.count - position >= minimum else { return false }
            return attempt(rest, bytes, bytes.count, start, &groups, openStack: openStack)
        }
    }
}

/// A replacement template split into literal text and group references, read with ICU's rules; nil when the
/// template uses something only ICU should interpret (a `$` not followed by a digit).
struct TemplateParts: Sendable {
    enum Part: Sendable {
        case text([UInt8])
        case group(Int)
    }

    let parts: [Part]

    init?(_ template: String, groupCount: Int) {
        var parts: [Part] = []
        var text: [UInt8] = []
        var bytes = Array(template.utf8)[...]
        while let byte = bytes.first {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: "\\") {
                guard let escaped = bytes.first, escaped < 0x80 else { return nil }
                text.append(escaped)
                bytes = bytes.dropFirst()
            } else if byte == UInt8(ascii: "$") {
                guard let first = bytes.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else { return nil }
                var group = Int(first - UInt8(ascii: "0"))
                bytes = bytes.dropFirst()
                while let next = bytes.first, next >= UInt8(ascii: "0"), next <= UInt8(ascii: "9"),
                    group * 10 + Int(next - UInt8(ascii: "0")) <= groupCount
                {
                    group = group * 10 + Int(next - UInt8(ascii: "0"))
                    bytes = bytes.dropFirst()
                }
                guard group <= groupCount else { return nil }
                if !text.isEmpty { parts.append(.text(text)); text = [] }
                parts.append(.group(group))
            } else {
                text.append(byte)
            }
        }
        if !text.isEmpty { parts.append(.text(text)) }
        self.parts = parts
    }

    /// Whether the template's own text is free of control characters and cannot start a forbidden scheme by itself.
    var isPlainText: Bool {
        parts.allSatisfy { part in
            guard case .text(let text) = part else { return true }
            return !text.contains { $0 < 0x20 || $0 == 0x7F }
        }
    }

    /// The input with the match replaced by the rendered template (the match runs to the end of the input),
    /// written straight into one string allocation.
    func render(_ match: TrivialPattern.Match, in bytes: [UInt8]) -> String {
        var length = match.start
        for part in parts {
            switch part {
            case .text(let text): length += text.count
            case .group(let group): length += match.groups[group]?.count ?? 0
            }
        }
        return String(unsafeUninitializedCapacity: length) { buffer in
            var position = 0
            func copy(_ slice: ArraySlice<UInt8>) {
                for byte in slice {
                    buffer[position] = byte
                    position += 1
                }
            }
            copy(bytes[0..<match.start])
            for part in parts {
                switch part {
                case .text(let text): copy(text[...])
                case .group(let group):
                    if let range = match.groups[group] { copy(bytes[range]) }
                }
            }
            return position
        }
    }
}

extension TemplateParts {
    /// `stringByReplacingMatches` for an ASCII input, from matches ICU already found: the text between matches is
    /// copied, each match replaced by the template with its groups (UTF-16 offsets equal byte offsets in ASCII;
    /// a group that did not take part renders as "", as in ICU). The differential test checks it against ICU.
    func render(_ matches: [NSTextCheckingResult], inASCII bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 32)
        var cursor = 0
        for match in matches {
            let whole = match.range
            guard whole.location != NSNotFound else { continue }
            output += bytes[cursor..<whole.location]
            for part in parts {
                switch part {
                case .text(let text):
                    output += text
                case .group(let group):
                    let range = match.range(at: group)
                    if range.location != NSNotFound { output += bytes[range.location..<(range.location + range.length)] }
                }
            }
            cursor = whole.location + whole.length
        }
        output += bytes[cursor...]
        return String(decoding: output, as: UTF8.self)
    }
}
