import Foundation
import LinkRules

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
    /// Each capture group with the indexes of its open and close items.
    private let groupItems: [(group: Int, open: Int, close: Int)]
    /// The byte every match starts with, when the pattern begins with a required literal.
    private let firstRequired: UInt8?
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
        let requiredLiteral = items.contains {
            if case .literal(_, optional: false) = $0 { return true } else { return false }
        }
        guard sawRest, depth == 0, consumesSomething || requiredLiteral, groups <= 3 else { return nil }
        self.items = items
        self.groupCount = groups
        var openStack: [(group: Int?, open: Int)] = []
        var groupItems: [(group: Int, open: Int, close: Int)] = []
        for (index, item) in items.enumerated() {
            if case .open(let group) = item { openStack.append((group, index)) }
            if case .close = item, let open = openStack.popLast(), let group = open.group {
                groupItems.append((group, open.open, index))
            }
        }
        self.groupItems = groupItems
        let leading = items.first { if case .open = $0 { return false } else { return true } }
        if case .literal(let byte, optional: false)? = leading { firstRequired = byte } else { firstRequired = nil }
    }

    /// The match: its start (UTF-8 offset) and each group's UTF-8 range; the match always runs to the end.
    /// Inline storage for up to four groups (the pattern has at most three), so a match allocates nothing.
    struct Match {
        var start: Int
        /// Start and end of group 0, 1, 2, 3 (-1: the group did not take part).
        var bounds = SIMD8<Int>(repeating: -1)

        init(start: Int) { self.start = start }

        /// Group `group`'s range, if it took part.
        func group(_ group: Int) -> Range<Int>? {
            guard group < 4, bounds[2 * group] >= 0 else { return nil }
            return bounds[2 * group]..<bounds[2 * group + 1]
        }
    }

    /// The leftmost match in `input` (which must hold no line terminator), if any.
    ///
    /// Positions where a leading required literal cannot start are skipped without an attempt, and one attempt
    /// allocates nothing: item positions live in one buffer reused across start positions.
    func firstMatch(in bytes: [UInt8]) -> Match? {
        bytes.withUnsafeBufferPointer { input -> Match? in
            withUnsafeTemporaryAllocation(of: Int.self, capacity: items.count + 1) { positions -> Match? in
                for start in 0...input.count {
                    if let firstRequired, start < input.count, input[start] != firstRequired { continue }
                    if attempt(0, input, start, positions) {
                        var match = Match(start: start)
                        match.bounds[0] = start
                        match.bounds[1] = input.count
                        for group in groupItems {
                            match.bounds[2 * group.group] = positions[group.open]
                            match.bounds[2 * group.group + 1] = positions[group.close]
                        }
                        return match
                    }
                }
                return nil
            }
        }
    }

    /// Greedy backtracking over the few optional characters; `rest` accepts whatever remains. `positions[i]` records
    /// where item `i` was reached on the successful path (groups are read from their open and close items).
    private func attempt(
        _ index: Int,
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ position: Int,
        _ positions: UnsafeMutableBufferPointer<Int>
    ) -> Bool {
        guard index < items.count else { return true }
        positions[index] = position
        switch items[index] {
        case .literal(let byte, let optional):
            if position < bytes.count, bytes[position] == byte, attempt(index + 1, bytes, position + 1, positions) {
                return true
            }
            return optional && attempt(index + 1, bytes, position, positions)
        case .open, .close:
            return attempt(index + 1, bytes, position, positions)
        case .rest(let minimum):
            guard bytes.count - position >= minimum else { return false }
            return attempt(index + 1, bytes, bytes.count, positions)
        }
    }
}

/// Slices copied with memcpy into one string's storage, never past its length (both template renderers write through
/// it; a byte loop here was an eighth of the resolver's time).
private struct SliceWriter {
    let output: UnsafeMutablePointer<UInt8>
    let length: Int
    private(set) var position = 0

    init(output: UnsafeMutablePointer<UInt8>, length: Int) {
        self.output = output
        self.length = length
    }

    mutating func copy(_ start: UnsafePointer<UInt8>?, _ count: Int) {
        guard count > 0, let start, position + count <= length else { return }
        (output + position).update(from: start, count: count)
        position += count
    }
}

/// A replacement template split into literal text and group references, as ``TemplateReferences`` reads it (the
/// template syntax of `NSRegularExpression`: `$n`, `\` escapes); nil when the template uses something only ICU
/// should interpret (a `$` not followed by a digit).
struct TemplateParts: Sendable {
    enum Part: Sendable {
        case text([UInt8])
        case group(Int)
    }

    /// One piece of the template, flat: text is `text[start..<start + count]`; a group reference has `group >= 0`.
    /// (Two contiguous buffers per template instead of an array of arrays: rendering 44 browser templates per link
    /// chased a pointer per text part.)
    struct Piece: Sendable {
        let group: Int32
        let start: Int32
        let count: Int32
    }

    /// Every text piece's bytes, back to back.
    let text: [UInt8]
    let pieces: [Piece]

    /// The pieces as text and group parts.
    var parts: [Part] {
        pieces.map { piece in
            piece.group >= 0
                ? .group(Int(piece.group)) : .text(Array(text[Int(piece.start)..<Int(piece.start + piece.count)]))
        }
    }

    /// The template's parts as ``TemplateReferences`` reads them (nil when it names a group the regex lacks, which
    /// the loader refuses anyway: Foundation renders it).
    init?(_ template: String, groupCount: Int) {
        var parts: [Part] = []
        for token in TemplateReferences.tokens(in: template, groupCount: groupCount) {
            switch token {
            case .text(let text):
                parts.append(.text(Array(text.utf8)))
            case .group(let reference):
                guard reference.group <= groupCount else { return nil }
                parts.append(.group(reference.group))
            }
        }
        var allText: [UInt8] = []
        var pieces: [Piece] = []
        for part in parts {
            switch part {
            case .text(let bytes):
                pieces.append(Piece(group: -1, start: Int32(allText.count), count: Int32(bytes.count)))
                allText += bytes
            case .group(let group):
                pieces.append(Piece(group: Int32(group), start: 0, count: 0))
            }
        }
        self.text = allText
        self.pieces = pieces
    }

    /// Whether the template's own text is free of control characters and cannot start a forbidden scheme by itself.
    var isPlainText: Bool {
        parts.allSatisfy { part in
            guard case .text(let text) = part else { return true }
            // Control characters would be refused, and non-ASCII text may hold invisible characters to encode.
            return !text.contains { $0 < 0x20 || $0 >= 0x7F }
        }
    }

    /// Whether the template starts with literal text holding a whole scheme that is not forbidden (`dolphin://$1`):
    /// an output that starts with the template then cannot start with a forbidden scheme.
    var startsWithSafeScheme: Bool {
        guard case .text(let text)? = parts.first, text.contains(UInt8(ascii: ":")),
            let scheme = OutputSafety.leadingScheme(of: String(decoding: text, as: UTF8.self))
        else { return false }
        return !OutputSafety.forbiddenSchemes.contains(scheme.lowercased())
    }

    /// The input with the match replaced by the rendered template (the match runs to the end of the input),
    /// written straight into one string allocation.
    func render(_ match: TrivialPattern.Match, in bytes: [UInt8]) -> String {
        var length = match.start
        for piece in pieces {
            length += piece.group < 0 ? Int(piece.count) : match.group(Int(piece.group))?.count ?? 0
        }
        return bytes.withUnsafeBufferPointer { input in
            text.withUnsafeBufferPointer { text in
                String(unsafeUninitializedCapacity: length) { buffer in
                    guard let output = buffer.baseAddress else { return 0 }
                    var writer = SliceWriter(output: output, length: length)
                    let source = input.baseAddress
                    writer.copy(source, match.start)
                    for piece in pieces {
                        if piece.group < 0 {
                            writer.copy(text.baseAddress.map { $0 + Int(piece.start) }, Int(piece.count))
                        } else if let range = match.group(Int(piece.group)) {
                            writer.copy(source.map { $0 + range.lowerBound }, range.count)
                        }
                    }
                    return writer.position
                }
            }
        }
    }
}

extension TemplateParts {
    /// `stringByReplacingMatches` for an ASCII input from flat match offsets (per match, start and end of the whole
    /// match and of each group, -1 for a group that did not take part; UTF-16 offsets equal byte offsets in ASCII).
    func render(offsets: [Int], matchCount: Int, inASCII bytes: [UInt8]) -> String {
        let stride = offsets.count / max(matchCount, 1)
        var length = bytes.count
        for match in 0..<matchCount {
            let base = match * stride
            length -= offsets[base + 1] - offsets[base]
            for piece in pieces {
                if piece.group < 0 {
                    length += Int(piece.count)
                } else {
                    let start = offsets[base + 2 * Int(piece.group)]
                    if start >= 0 { length += offsets[base + 2 * Int(piece.group) + 1] - start }
                }
            }
        }
        return bytes.withUnsafeBufferPointer { input in
            text.withUnsafeBufferPointer { text in
                String(unsafeUninitializedCapacity: length) { buffer in
                    guard let output = buffer.baseAddress else { return 0 }
                    var writer = SliceWriter(output: output, length: length)
                    let source = input.baseAddress
                    var cursor = 0
                    for match in 0..<matchCount {
                        let base = match * stride
                        writer.copy(source.map { $0 + cursor }, offsets[base] - cursor)
                        for piece in pieces {
                            if piece.group < 0 {
                                writer.copy(text.baseAddress.map { $0 + Int(piece.start) }, Int(piece.count))
                            } else {
                                let start = offsets[base + 2 * Int(piece.group)]
                                if start >= 0 {
                                    writer.copy(
                                        source.map { $0 + start },
                                        offsets[base + 2 * Int(piece.group) + 1] - start
                                    )
                                }
                            }
                        }
                        cursor = offsets[base + 1]
                    }
                    writer.copy(source.map { $0 + cursor }, input.count - cursor)
                    return writer.position
                }
            }
        }
    }

    /// `stringByReplacingMatches` for an ASCII input, from matches ICU already found: the text between matches is
    /// copied, each match replaced by the template with its groups (UTF-16 offsets equal byte offsets in ASCII;
    /// a group that did not take part renders as "", as in ICU). The differential test checks it against ICU.
    func render(_ matches: [NSTextCheckingResult], inASCII bytes: [UInt8]) -> String {
        let found = matches.filter { $0.range.location != NSNotFound }
        let groups = found.first?.numberOfRanges ?? 1
        var offsets: [Int] = []
        offsets.reserveCapacity(found.count * groups * 2)
        for match in found {
            for group in 0..<groups {
                let range =
                    group < match.numberOfRanges ? match.range(at: group) : NSRange(location: NSNotFound, length: 0)
                offsets.append(range.location == NSNotFound ? -1 : range.location)
                offsets.append(range.location == NSNotFound ? -1 : range.location + range.length)
            }
        }
        return render(offsets: offsets, matchCount: found.count, inASCII: bytes)
    }
}
