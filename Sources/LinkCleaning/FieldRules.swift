import LinkMatching

/// One provider's field-name rules in the add-on's order (`rules`, then the `referralMarketing` names not already
/// there), compiled for lookups: a rule that is a plain name is a table entry (compared in ASCII lower case, as
/// JavaScript's case-insensitive matching without the `u` flag compares); the others are indexed by the text every
/// match must contain (`utm`, `fbclid`), so a field name runs only the few regexes that could match it, most
/// often none.
struct FieldRules: Sendable {
    private let ordered: [CleaningPattern]
    /// Lower-cased plain name → its first position in `ordered`.
    private let names: [String: Int]
    /// The positions of the rules that need their regex, ascending.
    private let regexPositions: [Int]
    /// The required literals of those rules (index i: `regexPositions[i]`).
    private let prefilter: Prefilter?

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
        prefilter = regexPositions.isEmpty ? nil : Prefilter(patterns: regexPositions.map { ordered[$0].icuPattern })
    }

    var isEmpty: Bool { ordered.isEmpty }

    /// The first rule, in order, whose `^RULE$` matches `name`.
    func rule(for name: String, run: inout RegexRun) -> CleaningRule? {
        let named = names[LinkText.asciiLowercased(name)]
        if let prefilter, named.map({ $0 > regexPositions[0] }) ?? true {
            let candidates = prefilter.candidateIndexes(for: LinkBytes(name))
            if !candidates.isEmpty {
                let units = Array(name.utf16)
                for candidate in candidates {
                    let position = regexPositions[candidate]
                    if let named, named < position { break }
                    if run.first(ordered[position], name, units) != nil { return ordered[position].rule }
                }
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
