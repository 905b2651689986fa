import WebLinks

/// The text operations cleaning needs, shared by the compiled cleaner and the benchmark's naive loop: fields of the
/// query and the fragment, `decodeURIComponent`, and removing matched ranges. Everything not removed is kept byte for
/// byte.
package enum LinkText {
    /// Removes the fields whose decoded name `rule(for:)` names a rule for, from the query and then from the
    /// fragment; returns the new text and a step per removed field, in link order (nil text: nothing removed).
    package static func removingFields(
        from text: String,
        rule: (_ name: String) -> CleaningRule?
    ) -> (text: String, steps: [CleaningStep])? {
        let hash = text.firstIndex(of: "#")
        let beforeFragment = text[..<(hash ?? text.endIndex)]
        let question = beforeFragment.firstIndex(of: "?")
        var steps: [CleaningStep] = []
        let query = question.map { beforeFragment[beforeFragment.index(after: $0)...] }
        let fragment = hash.map { text[text.index(after: $0)...] }
        let keptQuery = query.flatMap { keptFields(of: $0, part: .query, rule: rule, steps: &steps) }
        let keptFragment = fragment.flatMap { keptFields(of: $0, part: .fragment, rule: rule, steps: &steps) }
        guard !steps.isEmpty else { return nil }
        var result = String(beforeFragment[..<(question ?? beforeFragment.endIndex)])
        if let question {
            let kept = keptQuery ?? String(beforeFragment[beforeFragment.index(after: question)...])
            if !kept.isEmpty { result += "?" + kept }
        }
        if let hash {
            let kept = keptFragment ?? String(text[text.index(after: hash)...])
            if !kept.isEmpty { result += "#" + kept }
        }
        return (result, steps)
    }

    /// The part without its removed fields, or nil when none is removed. Empty fields (`a=1&&b=2`) are kept.
    private static func keptFields(
        of part: Substring,
        part kind: CleaningStep.Part,
        rule: (String) -> CleaningRule?,
        steps: inout [CleaningStep]
    ) -> String? {
        let fields = part.split(separator: "&", omittingEmptySubsequences: false)
        var kept: [Substring] = []
        let before = steps.count
        for field in fields {
            if !field.isEmpty, let matched = rule(decodedName(of: field)) {
                steps.append(CleaningStep(action: .removedField, rule: matched, text: String(field), part: kind))
            } else {
                kept.append(field)
            }
        }
        return steps.count == before ? nil : kept.joined(separator: "&")
    }

    /// The field's name as `URLSearchParams` reads it, the name the add-on tests: `+` is a space, percent escapes
    /// are decoded as UTF-8 (invalid sequences become U+FFFD).
    package static func decodedName(of field: Substring) -> String {
        let name = field[..<(field.firstIndex(of: "=") ?? field.endIndex)]
        guard name.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(name)
        }
        var bytes: [UInt8] = []
        var iterator = Array(name.utf8)[...]
        while let byte = iterator.popFirst() {
            if byte == UInt8(ascii: "+") {
                bytes.append(0x20)
            } else if byte == UInt8(ascii: "%"), iterator.count >= 2, let high = HexDigit.value(iterator.first!),
                let low = HexDigit.value(iterator.dropFirst().first!)
            {
                bytes.append(high << 4 | low)
                iterator = iterator.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// JavaScript's `decodeURIComponent`: every `%XX` decoded, the bytes read as UTF-8; nil where it throws a
    /// `URIError` (a `%` without two hexadecimal digits, or bytes that are not UTF-8). `+` stays a `+`.
    package static func decodeURIComponent(_ text: Substring) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        var rest = Array(text.utf8)[...]
        while let byte = rest.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard rest.count >= 2, let high = HexDigit.value(rest.first!),
                let low = HexDigit.value(rest.dropFirst().first!)
            else { return nil }
            bytes.append(high << 4 | low)
            rest = rest.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// `text` without the UTF-16 `ranges` (sorted, not overlapping), and the removed pieces.
    package static func removing(_ ranges: [Range<Int>], from utf16: [UInt16]) -> (text: String, removed: [String]) {
        var kept: [UInt16] = []
        kept.reserveCapacity(utf16.count)
        var removed: [String] = []
        var cursor = 0
        for range in ranges where range.lowerBound >= cursor {
            kept += utf16[cursor..<range.lowerBound]
            removed.append(String(decoding: utf16[range], as: UTF16.self))
            cursor = range.upperBound
        }
        kept += utf16[cursor...]
        return (String(decoding: kept, as: UTF16.self), removed)
    }

    /// The redirect target a redirection's first group names: decoded as `decodeURIComponent` does and read as a
    /// link; nil when it cannot be decoded or is not a web link (the redirection is then not followed).
    package static func redirectTarget(_ group: Substring) -> Link? {
        guard let decoded = decodeURIComponent(group) else { return nil }
        return try? Link(decoded)
    }

    /// Whether a raw rule's result is still a link to the same host (a rule that would break the link or move it
    /// to another host is not applied).
    package static func keepsHost(_ text: String, of host: String) -> Bool {
        (try? Link(text))?.host == host
    }

    /// ASCII lower case, leaving other characters alone: JavaScript's case-insensitive matching without the `u`
    /// flag never folds a non-ASCII character onto an ASCII one.
    package static func asciiLowercased(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) else { return text }
        return String(decoding: text.utf8.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
