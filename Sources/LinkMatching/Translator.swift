/// Writes one JavaScript pattern out in ICU syntax, left to right (``JavaScriptRegex/translate(_:caseInsensitive:)``).
struct Translator {
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
}
