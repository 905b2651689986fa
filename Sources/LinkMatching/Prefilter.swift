import LinkRules

/// Chooses, for a link, the few rules (actions, previews) whose regex could match it: the literal automaton finds every action whose
/// required literal occurs in the link; actions with nothing to index are always confirmed by their regex.
package struct Prefilter: Sendable {
    let automaton: LiteralAutomaton
    /// Rules that must always be confirmed by their regex (no required literal).
    package let alwaysRun: [Int]
    /// How many rules the automaton indexes.
    package let indexedCount: Int

    /// Indexes `patterns`.
    package init(patterns: [String]) {
        self.init(literals: patterns.map(RequiredLiterals.of))
    }

    /// Indexes rules by their required literals (nil: always confirmed).
    package init(literals: [[String]?]) {
        var indexed: [(index: Int, literals: [String])] = []
        var always: [Int] = []
        for (index, literals) in literals.enumerated() {
            if let literals {
                indexed.append((index, literals))
            } else {
                always.append(index)
            }
        }
        automaton = LiteralAutomaton(rules: indexed)
        alwaysRun = always
        indexedCount = indexed.count
    }

    /// `candidates[i]` is true when action `i` must be confirmed by its regex.
    func candidates(for link: String, count actionCount: Int) -> [Bool] {
        var hits = [Bool](repeating: false, count: actionCount)
        for index in candidateIndexes(for: LinkBytes(link)) { hits[index] = true }
        return hits
    }

    /// The rules to confirm with their regex, in ascending order.
    package func candidateIndexes(for link: LinkBytes) -> [Int] {
        if link.hasCaseFoldingHazard || link.hasLineTerminator || link.hasNUL {
            // ICU's case-insensitive matching folds a few non-ASCII letters onto ASCII ones (K KELVIN SIGN → k,
            // LONG S → s, dotted/dotless I); an ASCII prefilter could miss those. Line terminators change what `$`
            // means, and a 0 byte would fake the end marker. Such links confirm every rule.
            return Array(0..<(indexedCount + alwaysRun.count))
        }
        var found = automaton.scan(link.bytes)
        if !alwaysRun.isEmpty {
            found += alwaysRun
        }
        if found.count > 1 { found.sort() }
        return found
    }

}

/// A link's UTF-8 bytes and the facts the matcher needs about them, found in one pass.
package struct LinkBytes {
    /// The link.
    let text: String
    /// Its UTF-8 bytes.
    let bytes: [UInt8]
    /// Only ASCII.
    let isASCII: Bool
    /// A C0 control character or DEL.
    let hasControl: Bool
    /// A 0 byte (the prefilter's end marker).
    let hasNUL: Bool
    /// A character ICU treats as a line terminator.
    let hasLineTerminator: Bool
    /// A non-ASCII letter that ICU's case-insensitive matching folds onto an ASCII one.
    let hasCaseFoldingHazard: Bool

    package init(_ text: String) {
        self.text = text
        let bytes = Array(text.utf8)
        self.bytes = bytes
        var nonASCII = false
        var control = false
        var nul = false
        var asciiLineTerminator = false
        bytes.withUnsafeBufferPointer { buffer in
            for byte in buffer {
                if byte >= 0x80 {
                    nonASCII = true
                } else if byte < 0x20 || byte == 0x7F {
                    control = true
                    if byte == 0 { nul = true }
                    if byte >= 0x0A && byte <= 0x0D { asciiLineTerminator = true }
                }
            }
        }
        isASCII = !nonASCII
        hasControl = control
        hasNUL = nul
        hasLineTerminator =
            asciiLineTerminator
            || (nonASCII && text.unicodeScalars.contains { [0x85, 0x2028, 0x2029].contains($0.value) })
        hasCaseFoldingHazard =
            nonASCII && text.unicodeScalars.contains { [0x017F, 0x212A, 0x212B, 0x0130, 0x0131].contains($0.value) }
    }
}

extension RuleSet {
    /// The literals the prefilter requires for each action (nil: always confirmed), in manifest order.
    package var actionLiterals: [(rule: String, literals: [String]?)] {
        actions.map { ($0.action.pointer.description, RequiredLiterals.of($0.action.regex)) }
    }
}
