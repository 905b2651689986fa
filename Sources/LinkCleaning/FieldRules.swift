import LinkMatching

/// One provider's field-name rules in the add-on's order (`rules`, then the `referralMarketing` names not already
/// there), compiled for lookups: a rule that is a plain name is a table entry (compared in ASCII lower case, as
/// JavaScript's case-insensitive matching without the `u` flag compares), the others are one ICU alternation, so a
/// field costs one regex run per provider; only a field it matches runs the rules one by one, to name the rule.
struct FieldRules: Sendable {
    private let ordered: [CleaningPattern]
    /// Lower-cased plain name → its first position in `ordered`.
    private let names: [String: Int]
    /// The positions of the rules that need their regex, ascending.
    private let regexPositions: [Int]
    /// Every rule of `regexPositions` in one alternation (nil: there are none, or one uses a back-reference, whose
    /// number the alternation would shift).
    private let combined: CleaningPattern?

    init(_ ordered: [CleaningPattern]) {
        self.ordered = ordered
        var names: [String: Int] = [:]
        var regexPositions: [Int] = []
        for (position, pattern) in ordered.enumerated() {
            if Self.isPlainName(pattern.source) {
                let key = LinkText.asciiLowercased(pattern.source)
                if names[key] == nil { names[key] = position }
            } else {
                regexPositions.append(position)
            }
        }
        self.names = names
        self.regexPositions = regexPositions
        combined = Self.alternation(of: regexPositions.map { ordered[$0] })
    }

    private static func alternation(of patterns: [CleaningPattern]) -> CleaningPattern? {
        guard patterns.count > 1, let first = patterns.first else { return nil }
        var bodies: [String] = []
        for pattern in patterns {
            // Every translation starts with the case-insensitive flag; back-references are written `(?:\N)`.
            let backReference = (1...9).contains { pattern.icuPattern.contains("(?:\\\($0))") }
            guard pattern.icuPattern.hasPrefix("(?i)"), !backReference else { return nil }
            bodies.append("(?:" + pattern.icuPattern.dropFirst(4) + ")")
        }
        let source = "(?i)" + bodies.joined(separator: "|")
        guard let regex = try? CompiledRegex(source) else { return nil }
        return CleaningPattern(rule: first.rule, icuPattern: source, regex: regex)
    }

    var isEmpty: Bool { ordered.isEmpty }

    /// The first rule, in order, whose `^RULE$` matches `name`.
    func rule(for name: String, run: inout RegexRun) -> CleaningRule? {
        let named = names[LinkText.asciiLowercased(name)]
        if !regexPositions.isEmpty, named.map({ $0 > regexPositions[0] }) ?? true {
            let units = Array(name.utf16)
            if let combined, run.first(combined, name, units) == nil { return named.map { ordered[$0].rule } }
            for position in regexPositions {
                if let named, named < position { break }
                if run.first(ordered[position], name, units) != nil { return ordered[position].rule }
            }
        }
        return named.map { ordered[$0].rule }
    }

    /// ASCII text without a regex metacharacter: the rule matches exactly that name.
    static func isPlainName(_ source: String) -> Bool {
        !source.isEmpty
            && source.utf8.allSatisfy { byte in
                byte >= 0x20 && byte < 0x7F && !"\\^$.|?*+()[]{}/".utf8.contains(byte)
            }
    }
}
