// Character classes, and how one character is written outside and inside an ICU set.

extension Translator {
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
