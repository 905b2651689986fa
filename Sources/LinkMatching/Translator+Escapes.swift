import LinkRules

// Escapes outside a class: classes such as `\d`, boundaries, back-references and character escapes.

extension Translator {
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
                    reason: "'\\\(number)' refers to group \(number), but the pattern has \(groups.count, "group")"
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
}
