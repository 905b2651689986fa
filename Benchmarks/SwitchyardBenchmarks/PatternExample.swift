/// Writes a text that a JavaScript regex (the catalog's syntax) matches, from the regex itself: the generator behind
/// the cleaning corpus and the tests that exercise every provider of a real catalog without copying its links.
///
/// It walks the pattern once: a literal is itself, a class gives one of its members (a lower-case letter when it
/// can), `.` gives `a`, a repetition its minimum (one more on odd variants), an alternation the branch `variant`
/// picks. Anchors and lookarounds give nothing. The caller checks the result with the real regex: this is a guess,
/// never a proof.
package struct PatternExample {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private let variant: Int

    /// A text matching `pattern` (or nil when the pattern uses syntax the generator does not follow); `variant`
    /// changes the branches and repetition counts chosen.
    package static func text(matching pattern: String, variant: Int = 0) -> String? {
        var generator = PatternExample(scalars: Array(pattern.unicodeScalars), variant: variant)
        guard let text = generator.alternation(), generator.index == generator.scalars.count else { return nil }
        return text
    }

    private init(scalars: [Unicode.Scalar], variant: Int) {
        self.scalars = scalars
        self.variant = variant
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private mutating func alternation() -> String? {
        var branches: [String] = []
        while true {
            guard let branch = sequence() else { return nil }
            branches.append(branch)
            guard current == "|" else { break }
            index += 1
        }
        return branches[variant % branches.count]
    }

    private mutating func sequence() -> String? {
        var text = ""
        while let scalar = current, scalar != "|", scalar != ")" {
            guard let atom = atom(), let repeated = quantified(atom) else { return nil }
            text += repeated
        }
        return text
    }

    private mutating func quantified(_ atom: String) -> String? {
        var bounds: (Int, Int?)
        switch current {
        case "*": bounds = (0, nil)
        case "+": bounds = (1, nil)
        case "?": bounds = (0, 1)
        case "{":
            var cursor = index + 1
            var numbers = ["", ""]
            var part = 0
            while cursor < scalars.count, scalars[cursor] != "}" {
                if scalars[cursor] == "," {
                    part = 1
                    numbers[1] = "∞"
                } else if part == 1 && numbers[1] == "∞" {
                    numbers[1] = String(scalars[cursor])
                } else {
                    numbers[part].unicodeScalars.append(scalars[cursor])
                }
                cursor += 1
            }
            guard cursor < scalars.count, let low = Int(numbers[0]) else { return atom }  // a literal brace
            bounds = (low, part == 0 ? low : Int(numbers[1]))
            index = cursor
        default: return atom
        }
        index += 1
        if current == "?" { index += 1 }
        let extra = variant % 2 == 1 && (bounds.1 ?? Int.max) > bounds.0 ? 1 : 0
        return String(repeating: atom, count: bounds.0 + extra)
    }

    private mutating func atom() -> String? {
        guard let scalar = current else { return nil }
        index += 1
        switch scalar {
        case "^", "$": return ""
        case ".": return "a"
        case "[": return characterClass()
        case "\\": return escape(inClass: false)
        case "(":
            var zeroWidth = false
            if current == "?" {
                index += 1
                switch current {
                case ":": index += 1
                case "=", "!":
                    index += 1
                    zeroWidth = true
                case "<":
                    index += 1
                    if current == "=" || current == "!" {
                        index += 1
                        zeroWidth = true
                    } else {
                        while let next = current, next != ">" { index += 1 }
                        index += 1
                    }
                default: return nil
                }
            }
            guard let inner = alternation(), current == ")" else { return nil }
            index += 1
            return zeroWidth ? "" : inner
        default: return String(scalar)
        }
    }

    private mutating func escape(inClass: Bool) -> String? {
        guard let scalar = current else { return nil }
        index += 1
        switch scalar {
        case "d": return "1"
        case "w": return "a"
        case "s": return " "
        case "D", "W", "S": return "-"
        case "b", "B": return inClass ? "\u{8}" : ""
        case "n": return "\n"
        case "t": return "\t"
        default: return String(scalar)
        }
    }

    /// One member of the class: the first of a few friendly candidates it admits.
    private mutating func characterClass() -> String? {
        var negated = false
        if current == "^" {
            negated = true
            index += 1
        }
        var members: [ClosedRange<UInt32>] = []
        var first = true
        while let scalar = current, scalar != "]" || first {
            first = false
            index += 1
            var low = scalar.value
            if scalar == "\\" {
                guard let escaped = escape(inClass: true)?.unicodeScalars.first else { return nil }
                low = escaped.value
                if scalars[index - 1] == "d" { members.append(48...57) }
                if scalars[index - 1] == "w" { members.append(97...122) }
            }
            if current == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
                index += 1
                var high = current!.value
                index += 1
                if high == 0x5C, let escaped = escape(inClass: true)?.unicodeScalars.first { high = escaped.value }
                members.append(low...max(low, high))
            } else {
                members.append(low...low)
            }
        }
        guard current == "]" else { return nil }
        index += 1
        let friendly = "abcdefgxyz0123456789ABCDEF-_".unicodeScalars.map(\.value)
        let choice = friendly.first { value in members.contains { $0.contains(value) } != negated }
        return choice.flatMap(Unicode.Scalar.init).map { String($0) }
    }
}
