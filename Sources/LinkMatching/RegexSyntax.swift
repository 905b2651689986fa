/// A deliberately small parser of ICU regex syntax, used only to learn what every match must contain.
///
/// It never decides whether something matches: it derives literals for the prefilter, and anything it does not
/// understand becomes "could be anything", which only makes the prefilter less selective, never wrong. Constructs
/// it refuses outright (extended mode `(?x)`, `\Q…\E`) make the whole pattern unindexed.
indirect enum RegexNode: Equatable {
    /// One literal character (lower-cased ASCII; non-ASCII literals are treated as ``anyCharacter``).
    case literal(UInt8)
    /// One character from a class, `.`, `\w`, … (unknown which).
    case anyCharacter
    /// Zero-width: anchors, `\b`, lookaround.
    case empty
    case concatenation([RegexNode])
    case alternation([RegexNode])
    case repetition(RegexNode, min: Int, max: Int?)
}

struct RegexSyntaxParser {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    /// Parses `pattern`, or returns nil when it uses syntax the analysis must not guess about.
    static func parse(_ pattern: String) -> RegexNode? {
        // Byte search: `String.contains` went through the string-processing searcher, a tenth of the analysis.
        let bytes = Array(pattern.utf8)
        for index in bytes.indices.dropLast(2)
        where bytes[index] == UInt8(ascii: "(") && bytes[index + 1] == UInt8(ascii: "?") {
            if bytes[index + 2] == UInt8(ascii: "m") || bytes[index + 2] == UInt8(ascii: "-") { return nil }
        }
        var parser = RegexSyntaxParser(scalars: Array(pattern.unicodeScalars))
        guard let node = parser.parseAlternation(), parser.index == parser.scalars.count else { return nil }
        return node
    }

    private init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private mutating func parseAlternation() -> RegexNode? {
        var branches: [RegexNode] = []
        while true {
            guard let branch = parseConcatenation() else { return nil }
            branches.append(branch)
            guard current == "|" else { break }
            index += 1
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func parseConcatenation() -> RegexNode? {
        var items: [RegexNode] = []
        while let scalar = current, scalar != "|", scalar != ")" {
            guard let atom = parseAtom() else { return nil }
            guard let quantified = parseQuantifier(on: atom) else { return nil }
            items.append(quantified)
        }
        return items.count == 1 ? items[0] : .concatenation(items)
    }

    private mutating func parseQuantifier(on atom: RegexNode) -> RegexNode? {
        var node = atom
        while let scalar = current {
            var bounds: (Int, Int?)
            switch scalar {
            case "*":
                bounds = (0, nil)
                index += 1
            case "+":
                bounds = (1, nil)
                index += 1
            case "?":
                bounds = (0, 1)
                index += 1
            case "{":
                guard let parsed = parseBraces() else { return node }  // a literal "{" in ICU is an error anyway
                bounds = parsed
            default: return node
            }
            if current == "?" || current == "+" { index += 1 }  // lazy or possessive: same language
            node = .repetition(node, min: bounds.0, max: bounds.1)
        }
        return node
    }

    private mutating func parseBraces() -> (Int, Int?)? {
        let start = index
        index += 1
        var minimum = 0
        var maximum: Int?
        var sawComma = false
        var digits = ""
        while let scalar = current, scalar != "}" {
            if scalar == "," {
                guard !sawComma, let value = Int(digits) else {
                    index = start
                    return nil
                }
                minimum = value
                sawComma = true
                digits = ""
            } else if ("0"..."9").contains(scalar) {
                digits.unicodeScalars.append(scalar)
            } else {
                index = start
                return nil
            }
            index += 1
        }
        guard current == "}" else {
            index = start
            return nil
        }
        index += 1
        if sawComma {
            maximum = digits.isEmpty ? nil : Int(digits)
        } else {
            guard let value = Int(digits) else { return nil }
            minimum = value
            maximum = value
        }
        return (minimum, maximum)
    }

    private mutating func parseAtom() -> RegexNode? {
        guard let scalar = current else { return nil }
        switch scalar {
        case "(":
            return parseGroup()
        case "[":
            return skipClass() ? .anyCharacter : nil
        case ".":
            index += 1
            return .anyCharacter
        case "^":
            index += 1
            return .empty
        case "$":
            // End of input: the prefilter scans links with a trailing 0 byte. (Multi-line mode would make `$`
            // match at line ends; it is left unindexed by `parse`.)
            index += 1
            return .literal(RequiredLiterals.endOfText)
        case "\\":
            return parseEscape()
        case "*", "+", "?", "{":
            return nil  // a quantifier with nothing to repeat: leave the pattern unindexed
        default:
            index += 1
            return Self.literal(scalar)
        }
    }

    static func literal(_ scalar: Unicode.Scalar) -> RegexNode {
        guard scalar.isASCII else { return .anyCharacter }
        var byte = UInt8(scalar.value)
        if byte >= 0x41 && byte <= 0x5A { byte += 0x20 }
        return .literal(byte)
    }

    private mutating func parseEscape() -> RegexNode? {
        index += 1
        guard let scalar = current else { return nil }
        index += 1
        switch scalar {
        case "d", "D", "w", "W", "s", "S", "h", "H", "v", "V", "X", "R", "N":
            return .anyCharacter
        case "z":
            return .literal(RequiredLiterals.endOfText)
        case "b", "B", "A", "Z", "G":
            return .empty
        case "p", "P":
            if current == "{" {
                while let next = current, next != "}" { index += 1 }
                index += 1
            }
            return .anyCharacter
        case "n": return .literal(0x0A)
        case "t": return .literal(0x09)
        case "r": return .literal(0x0D)
        case "x", "u", "U", "0", "c", "e", "f", "a":
            // Code points written as escapes: not worth decoding for a prefilter.
            while let next = current, next.properties.isASCIIHexDigit || next == "{" || next == "}" { index += 1 }
            return .anyCharacter
        case "Q", "E", "k":
            return nil
        case "1"..."9":
            return .anyCharacter  // a backreference
        default:
            return scalar.properties.isAlphabetic ? .anyCharacter : Self.literal(scalar)
        }
    }

    private mutating func parseGroup() -> RegexNode? {
        index += 1
        var zeroWidth = false
        if current == "?" {
            index += 1
            guard let kind = current else { return nil }
            switch kind {
            case ":", ">":
                index += 1
            case "=", "!":
                index += 1
                zeroWidth = true
            case "<":
                index += 1
                if current == "=" || current == "!" {
                    index += 1
                    zeroWidth = true
                } else {
                    while let next = current, next != ">" { index += 1 }  // named group
                    index += 1
                }
            case "#":
                while let next = current, next != ")" { index += 1 }
                index += 1
                return .empty
            default:
                // Inline flags: (?i) (?-i) (?i: …). Case is folded anyway; extended mode changes the syntax.
                var flags = ""
                while let next = current, next != ")", next != ":" {
                    flags.unicodeScalars.append(next)
                    index += 1
                }
                guard !flags.contains("x"), let end = current else { return nil }
                index += 1
                if end == ")" { return .empty }
            }
        }
        guard let inner = parseAlternation(), current == ")" else { return nil }
        index += 1
        return zeroWidth ? .empty : inner
    }

    /// Skips a character class, including nested sets and POSIX names (`[[:alnum:]_-]`, `[:xdigit:]`).
    private mutating func skipClass() -> Bool {
        var depth = 0
        var first = true
        while let scalar = current {
            index += 1
            switch scalar {
            case "\\":
                index += 1
            case "[":
                depth += 1
            case "]" where !first || depth > 1:
                depth -= 1
                if depth == 0 { return true }
            default:
                break
            }
            // A "]" right after "[" or "[^" is a literal member.
            first = scalar == "[" || (scalar == "^" && first)
        }
        return false
    }
}
