/// Flags patterns that nest unbounded repetition in a way that can backtrack exponentially: `(a+)+`, `(?:.+\.)+`,
/// `(\w*)*x`.
///
/// A repeated group whose body also repeats is only dangerous when one input can be split between the iterations
/// in many ways. When the body has a mandatory literal character that none of its repeated parts can match (the
/// `.` in `(\w+\.)*` or `(\.\w+)+`, the `/` in `([^/]+/)*`), every iteration must end at such a character, so
/// the split is unique and the group is safe. Those shapes are common in real rules (154 of the v5 manifest's 365
/// actions use them) and are not reported.
package enum RedosHeuristic {
    /// One element of a group body at its own level.
    private struct Atom {
        /// What the atom can match, when it is a single character class; nil for groups and unknown escapes.
        var characters: CharacterSet?
        /// A literal character, when the atom is one.
        var literal: Character?
        /// Followed by `+`, `*` or `{n,}`.
        var repeats = false
        /// Followed by `?`, `*` or `{0,…}` (may be absent).
        var optional = false
        /// A nested group whose body repeats.
        var nestedRepeats = false
    }

    /// A set of characters, for the classes rules use.
    private enum CharacterSet {
        case any
        case word, digit, space
        case notWord, notDigit, notSpace
        case bracket(members: Set<Character>, ranges: [ClosedRange<Character>], negated: Bool)

        func contains(_ character: Character) -> Bool {
            switch self {
            case .any: return character != "\n"
            case .word: return character.isLetter || character.isNumber || character == "_"
            case .digit: return character.isNumber
            case .space: return character.isWhitespace
            case .notWord: return !CharacterSet.word.contains(character)
            case .notDigit: return !character.isNumber
            case .notSpace: return !character.isWhitespace
            case .bracket(let members, let ranges, let negated):
                let inside = members.contains(character) || ranges.contains { $0.contains(character) }
                return inside != negated
            }
        }
    }

    package static func isSuspicious(_ pattern: String) -> Bool {
        // Only a repeated group can be reported, and most patterns have none: skip the parse (run at every load)
        // unless some `)` is followed by `+`, `*` or `{`.
        var previous: UInt8 = 0
        var repeatedGroup = false
        for byte in pattern.utf8 {
            if previous == UInt8(ascii: ")"),
                byte == UInt8(ascii: "+") || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "{")
            {
                repeatedGroup = true
                break
            }
            previous = byte
        }
        guard repeatedGroup else { return false }
        var parser = Parser(characters: Array(pattern))
        return parser.parseBody(depth: 0).suspicious
    }

    private struct Parser {
        let characters: [Character]
        var index = 0

        /// Parses atoms until `)` or the end; returns whether the body repeats something and whether anything
        /// inside is suspicious.
        mutating func parseBody(depth: Int) -> (atoms: [Atom], suspicious: Bool) {
            var atoms: [Atom] = []
            var suspicious = false
            while index < characters.count {
                let character = characters[index]
                if character == ")" {
                    if depth > 0 { return (atoms, suspicious) }
                    index += 1
                    continue
                }
                var atom = Atom()
                switch character {
                case "(":
                    index += 1
                    skipGroupPrefix()
                    let inner = parseBody(depth: depth + 1)
                    if index < characters.count { index += 1 }  // ")"
                    suspicious = suspicious || inner.suspicious
                    atom.nestedRepeats = inner.atoms.contains { $0.repeats || $0.nestedRepeats }
                    readQuantifier(into: &atom)
                    if atom.repeats, atom.nestedRepeats, !Self.hasSeparator(inner.atoms) { suspicious = true }
                case "|":
                    index += 1
                    // Alternatives make every literal optional from the group's point of view.
                    for position in atoms.indices { atoms[position].optional = true }
                    atom.optional = true
                    atoms.append(atom)
                    continue
                case "[":
                    atom.characters = parseBracket()
                    readQuantifier(into: &atom)
                case "\\":
                    parseEscape(into: &atom)
                    readQuantifier(into: &atom)
                case ".":
                    index += 1
                    atom.characters = .any
                    readQuantifier(into: &atom)
                case "^", "$":
                    index += 1
                    continue
                default:
                    index += 1
                    atom.literal = character
                    atom.characters = .bracket(members: [character], ranges: [], negated: false)
                    readQuantifier(into: &atom)
                }
                atoms.append(atom)
            }
            return (atoms, suspicious)
        }

        /// A body is separated when it has a mandatory literal that none of its repeated parts can match.
        static func hasSeparator(_ atoms: [Atom]) -> Bool {
            let repeated = atoms.filter { $0.repeats || $0.nestedRepeats }
            guard repeated.allSatisfy({ $0.characters != nil }) else { return false }
            return atoms.contains { atom in
                guard let literal = atom.literal, !atom.optional, !atom.repeats else { return false }
                return repeated.allSatisfy { $0.characters?.contains(literal) == false }
            }
        }

        mutating func skipGroupPrefix() {
            guard index < characters.count, characters[index] == "?" else { return }
            index += 1
            // (?: (?= (?! (?<= (?<! (?<name> (?i) (?i: …
            while index < characters.count, !":=!)".contains(characters[index]) {
                if characters[index] == "<", index + 1 < characters.count, "=!".contains(characters[index + 1]) {
                    index += 1
                    break
                }
                if characters[index] == ">" { break }
                index += 1
            }
            if index < characters.count, characters[index] != ")" { index += 1 }
        }

        mutating func readQuantifier(into atom: inout Atom) {
            guard index < characters.count else { return }
            switch characters[index] {
            case "+":
                atom.repeats = true
            case "*":
                atom.repeats = true
                atom.optional = true
            case "?":
                atom.optional = true
            case "{":
                var text = ""
                var cursor = index + 1
                while cursor < characters.count, characters[cursor] != "}" {
                    text.append(characters[cursor])
                    cursor += 1
                }
                guard cursor < characters.count else { return }
                let bounds = text.split(separator: ",", omittingEmptySubsequences: false)
                atom.optional = bounds.first.map { $0 == "0" } ?? false
                atom.repeats = bounds.count == 2 && (bounds[1].isEmpty || (Int(bounds[1]) ?? 0) > 1)
                index = cursor
            default:
                return
            }
            index += 1
            if index < characters.count, characters[index] == "?" || characters[index] == "+" { index += 1 }
        }

        mutating func parseEscape(into atom: inout Atom) {
            index += 1
            guard index < characters.count else { return }
            let escaped = characters[index]
            index += 1
            switch escaped {
            case "w": atom.characters = .word
            case "d": atom.characters = .digit
            case "s": atom.characters = .space
            case "W": atom.characters = .notWord
            case "D": atom.characters = .notDigit
            case "S": atom.characters = .notSpace
            case "b", "B", "A", "z", "Z", "G":
                atom.optional = true  // an assertion matches no character
            default:
                if escaped.isLetter || escaped.isNumber {
                    atom.characters = nil  // \p{…}, \x41, back references: unknown
                    atom.optional = true
                } else {
                    atom.literal = escaped
                    atom.characters = .bracket(members: [escaped], ranges: [], negated: false)
                }
            }
        }

        mutating func parseBracket() -> CharacterSet? {
            index += 1
            var negated = false
            if index < characters.count, characters[index] == "^" {
                negated = true
                index += 1
            }
            var members = Set<Character>()
            var ranges: [ClosedRange<Character>] = []
            var known = true
            var first = true
            while index < characters.count, characters[index] != "]" || first {
                first = false
                var character = characters[index]
                if character == "[" { known = false }
                if character == "\\", index + 1 < characters.count {
                    index += 1
                    character = characters[index]
                    if character.isLetter { known = false }
                }
                if index + 2 < characters.count, characters[index + 1] == "-", characters[index + 2] != "]" {
                    let upper = characters[index + 2]
                    if character <= upper { ranges.append(character...upper) } else { known = false }
                    index += 3
                    continue
                }
                members.insert(character)
                index += 1
            }
            if index < characters.count { index += 1 }  // "]"
            guard known else { return negated ? nil : .any }
            return .bracket(members: members, ranges: ranges, negated: negated)
        }
    }
}
