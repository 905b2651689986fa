/// Translates a JavaScript regular expression, as the ClearURLs add-on builds it (`new RegExp(source, "i")`, no `u`
/// flag, so with the web-compatibility grammar of ECMAScript Annex B), to ICU syntax with the same meaning on links.
///
/// Where the two dialects differ, the JavaScript meaning is written out: `\d`, `\w`, `\s` and `\b` are ASCII (or
/// JavaScript's white-space list), `.` excludes only JavaScript's four line terminators, `$` is the end of the input
/// (ICU's `$` also matches before a final line break), `[^]` matches anything and `[]` nothing, `[`, `&` and `-` are
/// plain characters inside a class (ICU reads nested sets and set operations there), a `{` or `}` that is not a
/// quantifier is a character, identity escapes such as `\Q`, `\h`, `\z` are the letter itself, `\v` is U+000B,
/// named groups become plain groups (same numbering) and `\k<name>` a back-reference by number. What has no faithful
/// translation is refused with the reason: `\u{…}` (without the `u` flag it means `u` repeated), octal escapes,
/// inline flags `(?i)`, possessive quantifiers, lone surrogates, a back-reference to a missing group.
enum JavaScriptRegex {
    /// Why a JavaScript regex is refused, in words.
    struct Refusal: Error, Equatable {
        /// One sentence.
        var reason: String
    }

    /// The ICU pattern with the same meaning as the JavaScript `source`, case-insensitive when `caseInsensitive`
    /// (the `i` flag the add-on passes everywhere).
    static func translate(_ source: String, caseInsensitive: Bool = true) throws(Refusal) -> String {
        var translator = Translator(Array(source.unicodeScalars))
        let body = try translator.translate()
        return caseInsensitive ? "(?i)" + body : body
    }

    /// JavaScript's `\s`: white space and line terminators as ECMAScript lists them.
    static let spaceMembers =
        "\\x{9}-\\x{D}\\x{20}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}"
    static let wordMembers = "a-zA-Z0-9_"
    static let digitMembers = "0-9"
}

private struct Translator {
    typealias Refusal = JavaScriptRegex.Refusal

    let scalars: [Unicode.Scalar]
    var index = 0
    var output = ""
    /// Group names in order of their opening parenthesis, nil for unnamed groups.
    let groups: [String?]

    init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
        groups = Self.groups(in: scalars)
    }

    var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }
    func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    /// The capturing groups, in order: a name for `(?<name>`, nil for `(`.
    static func groups(in scalars: [Unicode.Scalar]) -> [String?] {
        var groups: [String?] = []
        var index = 0
        var inClass = false
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\" {
                index += 2
                continue
            }
            if inClass {
                if scalar == "]" { inClass = false }
            } else if scalar == "[" {
                inClass = true
            } else if scalar == "(" {
                if index + 1 < scalars.count, scalars[index + 1] == "?" {
                    if index + 2 < scalars.count, scalars[index + 2] == "<", index + 3 < scalars.count,
                        scalars[index + 3] != "=", scalars[index + 3] != "!"
                    {
                        var name = ""
                        var cursor = index + 3
                        while cursor < scalars.count, scalars[cursor] != ">" {
                            name.unicodeScalars.append(scalars[cursor])
                            cursor += 1
                        }
                        groups.append(name)
                    }
                } else {
                    groups.append(nil)
                }
            }
            index += 1
        }
        return groups
    }

    static func hex(_ value: UInt32) -> String { "\\x{" + String(value, radix: 16, uppercase: true) + "}" }

    static func isHex(_ scalar: Unicode.Scalar?) -> Bool { scalar?.properties.isASCIIHexDigit ?? false }

    static func isDigit(_ scalar: Unicode.Scalar?) -> Bool {
        guard let scalar else { return false }
        return ("0"..."9").contains(scalar)
    }

    mutating func translate() throws(Refusal) -> String {
        var canRepeat = false
        while let scalar = current {
            switch scalar {
            case "\\":
                try escape()
                canRepeat = true
            case "[":
                try characterClass()
                canRepeat = true
            case "(":
                try openGroup()
                canRepeat = false
            case ")", "|", "^":
                output.unicodeScalars.append(scalar)
                index += 1
                canRepeat = scalar == ")"
            case "$":
                output += "\\z"
                index += 1
                canRepeat = false
            case ".":
                output += "[^\\x{A}\\x{D}\\x{2028}\\x{2029}]"
                index += 1
                canRepeat = true
            case "*", "+", "?":
                guard canRepeat else { throw Refusal(reason: "'\(scalar)' has nothing to repeat") }
                output.unicodeScalars.append(scalar)
                index += 1
                try quantifierSuffix()
                canRepeat = false
            case "{":
                if let quantifier = braceQuantifier() {
                    guard canRepeat else { throw Refusal(reason: "'\(quantifier)' has nothing to repeat") }
                    output += quantifier
                    index += quantifier.unicodeScalars.count
                    try quantifierSuffix()
                    canRepeat = false
                } else {
                    // Annex B: a brace that does not make a quantifier is a character.
                    output += "\\{"
                    index += 1
                    canRepeat = true
                }
            case "}", "]":
                output += "\\" + String(scalar)
                index += 1
                canRepeat = true
            default:
                output.unicodeScalars.append(scalar)
                index += 1
                canRepeat = true
            }
        }
        return output
    }

    /// After a quantifier: `?` makes it lazy (both dialects); another quantifier is JavaScript's syntax error but
    /// ICU's possessive form, so it is refused rather than given a meaning the add-on never had.
    mutating func quantifierSuffix() throws(Refusal) {
        if current == "?" {
            output += "?"
            index += 1
        }
        if let next = current, next == "*" || next == "+" || next == "?" || (next == "{" && braceQuantifier() != nil) {
            throw Refusal(reason: "'\(next)' follows a quantifier (a syntax error in JavaScript)")
        }
    }

    /// `{n}`, `{n,}` or `{n,m}` at the cursor, as written.
    func braceQuantifier() -> String? {
        var cursor = index + 1
        var text = "{"
        var digits = 0
        while cursor < scalars.count, Self.isDigit(scalars[cursor]) {
            text.unicodeScalars.append(scalars[cursor])
            cursor += 1
            digits += 1
        }
        guard digits > 0, cursor < scalars.count else { return nil }
        if scalars[cursor] == "," {
            text += ","
            cursor += 1
            while cursor < scalars.count, Self.isDigit(scalars[cursor]) {
                text.unicodeScalars.append(scalars[cursor])
                cursor += 1
            }
        }
        guard cursor < scalars.count, scalars[cursor] == "}" else { return nil }
        return text + "}"
    }

    mutating func openGroup() throws(Refusal) {
        index += 1
        guard current == "?" else {
            output += "("
            return
        }
        switch peek(1) {
        case ":", "=", "!":
            output += "(?" + String(peek(1)!)
            index += 2
        case "<" where peek(2) == "=" || peek(2) == "!":
            output += "(?<" + String(peek(2)!)
            index += 3
        case "<":
            // A named group: a plain group with the same number; `\k<name>` is rewritten to that number.
            index += 2
            while let scalar = current, scalar != ">" { index += 1 }
            guard current == ">" else { throw Refusal(reason: "a group name is not closed with '>'") }
            index += 1
            output += "("
        default:
            let what = peek(1).map { "(?\($0)" } ?? "(?"
            throw Refusal(reason: "'\(what)' is not JavaScript group syntax (JavaScript has no inline flags)")
        }
    }

    mutating func escape() throws(Refusal) {
        index += 1
        guard let scalar = current else { throw Refusal(reason: "the pattern ends with a lone backslash") }
        index += 1
        switch scalar {
        case "d": output += "[" + JavaScriptRegex.digitMembers + "]"
        case "D": output += "[^" + JavaScriptRegex.digitMembers + "]"
        case "w": output += "[" + JavaScriptRegex.wordMembers + "]"
        case "W": output += "[^" + JavaScriptRegex.wordMembers + "]"
        case "s": output += "[" + JavaScriptRegex.spaceMembers + "]"
        case "S": output += "[^" + JavaScriptRegex.spaceMembers + "]"
        case "b", "B":
            // JavaScript's word boundary is between an ASCII word character and anything else.
            let word = "[" + JavaScriptRegex.wordMembers + "]"
            let boundary = "(?:(?<=\(word))(?!\(word))|(?<!\(word))(?=\(word)))"
            let inside = "(?:(?<=\(word))(?=\(word))|(?<!\(word))(?!\(word)))"
            output += scalar == "b" ? boundary : inside
        case "1"..."9":
            index -= 1
            var number = 0
            while Self.isDigit(current), number < 1_000_000 {
                number = number * 10 + Int(current!.value - 48)
                index += 1
            }
            guard number <= groups.count else {
                throw Refusal(
                    reason: "'\\\(number)' refers to group \(number), but the pattern has \(groups.count) groups"
                )
            }
            output += "(?:\\\(number))"
        case "k" where groups.contains { $0 != nil }:
            guard current == "<" else { throw Refusal(reason: "'\\k' must be followed by a group name in <…>") }
            var name = ""
            index += 1
            while let next = current, next != ">" {
                name.unicodeScalars.append(next)
                index += 1
            }
            index += 1
            guard let number = groups.firstIndex(of: name) else {
                throw Refusal(reason: "'\\k<\(name)>' names no group of the pattern")
            }
            output += "(?:\\\(number + 1))"
        default:
            output += Self.literal(try characterEscape(scalar))
        }
    }

    /// The code point of a character escape (the escape's letter already read; an Annex B identity escape such as
    /// `\Q` is the letter itself); refuses what JavaScript reads in a way ICU cannot follow.
    mutating func characterEscape(_ scalar: Unicode.Scalar) throws(Refusal) -> UInt32 {
        switch scalar {
        case "f": return 0x0C
        case "n": return 0x0A
        case "r": return 0x0D
        case "t": return 0x09
        case "v": return 0x0B
        case "0":
            if Self.isDigit(current) { throw Refusal(reason: "octal escapes such as '\\0\(current!)' are refused") }
            return 0
        case "c":
            if let letter = current, letter.isASCII, letter.properties.isAlphabetic {
                index += 1
                return letter.value % 32
            }
            index -= 1  // Annex B: a backslash, then "c" as a character.
            return 0x5C
        case "x":
            guard Self.isHex(current), Self.isHex(peek(1)) else { return scalar.value }
            let value = UInt32(String(String.UnicodeScalarView([current!, peek(1)!])), radix: 16)!
            index += 2
            return value
        case "u":
            if current == "{" {
                throw Refusal(
                    reason:
                        "'\\u{…}' means 'u' repeated without JavaScript's u flag, which the add-on never sets; write \\uXXXX"
                )
            }
            guard let unit = hex4(at: index) else { return scalar.value }
            index += 4
            if (0xD800...0xDBFF).contains(unit) {
                guard current == "\\", peek(1) == "u", let low = hex4(at: index + 2), (0xDC00...0xDFFF).contains(low)
                else { throw Refusal(reason: "'\\u\(String(unit, radix: 16))' is half of a surrogate pair") }
                index += 6
                return 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            }
            if (0xDC00...0xDFFF).contains(unit) {
                throw Refusal(reason: "'\\u\(String(unit, radix: 16))' is half of a surrogate pair")
            }
            return unit
        default:
            // Identity escapes: `\/`, `\.`, and (Annex B) letters such as `\Q`, `\z`, `\h` stand for themselves.
            return scalar.value
        }
    }

    func hex4(at position: Int) -> UInt32? {
        guard position + 4 <= scalars.count, scalars[position..<(position + 4)].allSatisfy({ Self.isHex($0) })
        else { return nil }
        return UInt32(String(String.UnicodeScalarView(scalars[position..<(position + 4)])), radix: 16)
    }

    /// One member of a class: a character, or a set written as ICU set members.
    enum Member {
        case character(UInt32)
        case set(String)
        case dash
    }

    mutating func characterClass() throws(Refusal) {
        index += 1
        var negated = false
        if current == "^" {
            negated = true
            index += 1
        }
        var members: [Member] = []
        while let scalar = current, scalar != "]" {
            index += 1
            switch scalar {
            case "\\":
                guard let escaped = current else { throw Refusal(reason: "the pattern ends with a lone backslash") }
                index += 1
                switch escaped {
                case "d": members.append(.set(JavaScriptRegex.digitMembers))
                case "D": members.append(.set("[^" + JavaScriptRegex.digitMembers + "]"))
                case "w": members.append(.set(JavaScriptRegex.wordMembers))
                case "W": members.append(.set("[^" + JavaScriptRegex.wordMembers + "]"))
                case "s": members.append(.set(JavaScriptRegex.spaceMembers))
                case "S": members.append(.set("[^" + JavaScriptRegex.spaceMembers + "]"))
                case "b": members.append(.character(0x08))
                case "B": members.append(.character(UInt32(("B" as Unicode.Scalar).value)))
                case "1"..."9":
                    throw Refusal(reason: "'\\\(escaped)' inside a class is an octal escape, which is refused")
                default: members.append(.character(try characterEscape(escaped)))
                }
            case "-":
                members.append(.dash)
            default:
                members.append(.character(scalar.value))
            }
        }
        guard current == "]" else { throw Refusal(reason: "a '[' class is not closed with ']'") }
        index += 1
        if members.isEmpty {
            // `[]` matches nothing, `[^]` any character.
            output += negated ? "[\\x{0}-\\x{10FFFF}]" : "(?!)"
            return
        }
        var text = negated ? "[^" : "["
        var position = 0
        while position < members.count {
            let member = members[position]
            if case .character(let low) = member, position + 2 < members.count, case .dash = members[position + 1],
                case .character(let high) = members[position + 2]
            {
                guard low <= high else {
                    throw Refusal(reason: "the class range \(Self.hex(low))-\(Self.hex(high)) is out of order")
                }
                text += Self.member(low) + "-" + Self.member(high)
                position += 3
                continue
            }
            switch member {
            case .character(let value): text += Self.member(value)
            case .set(let set): text += set
            case .dash: text += "\\x{2D}"
            }
            position += 1
        }
        output += text + "]"
    }

    /// A character outside a set: ASCII letters, digits and space as they are, other ASCII quoted with a backslash
    /// (a literal in ICU, and what the prefilter's literal analysis reads), anything else by code point.
    static func literal(_ value: UInt32) -> String {
        guard let scalar = Unicode.Scalar(value), scalar.isASCII, value >= 0x20, value < 0x7F else { return hex(value) }
        if scalar.properties.isAlphabetic || isDigit(scalar) || scalar == " " { return String(scalar) }
        return "\\" + String(scalar)
    }

    /// A character inside an ICU set: letters and digits as they are, anything else by code point (ICU gives
    /// `[`, `&`, `-`, `^`, `$`, `{`, `:` meanings inside a set).
    static func member(_ value: UInt32) -> String {
        if let scalar = Unicode.Scalar(value), scalar.isASCII, scalar.properties.isAlphabetic || isDigit(scalar) {
            return String(scalar)
        }
        return hex(value)
    }
}
