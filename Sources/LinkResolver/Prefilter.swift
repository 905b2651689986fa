import LinkRules

/// Chooses, for a link, the few rules (actions, previews) whose regex could match it: the literal automaton finds every action whose
/// required literal occurs in the link; actions with nothing to index are always confirmed by their regex.
struct Prefilter: Sendable {
    let automaton: LiteralAutomaton
    /// Rules that must always be confirmed by their regex (no required literal).
    let alwaysRun: [Int]
    /// How many rules the automaton indexes.
    let indexedCount: Int

    /// Indexes `patterns`.
    init(patterns: [String]) {
        self.init(literals: patterns.map(RequiredLiterals.of))
    }

    /// Indexes rules by their required literals (nil: always confirmed).
    init(literals: [[String]?]) {
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
        if Self.hasCaseFoldingHazard(link) || containsLineTerminator(link) || link.utf8.contains(RequiredLiterals.endOfText) {
            // ICU's case-insensitive matching folds a few non-ASCII letters onto ASCII ones (K KELVIN SIGN → k,
            // LONG S → s, dotted/dotless I); an ASCII prefilter could miss those. Line terminators change what `$`
            // means, and a 0 byte would fake the end marker. Such links confirm every rule.
            return [Bool](repeating: true, count: actionCount)
        }
        automaton.scan(link, into: &hits)
        for index in alwaysRun { hits[index] = true }
        return hits
    }

    static func hasCaseFoldingHazard(_ link: String) -> Bool {
        link.utf8.contains { $0 >= 0x80 }
            && link.unicodeScalars.contains { [0x017F, 0x212A, 0x212B, 0x0130, 0x0131].contains($0.value) }
    }
}

/// Whether a string holds a character ICU treats as a line terminator (then `.` and `$` behave differently and the
/// trivial-pattern fast path must not be used).
func containsLineTerminator(_ text: String) -> Bool {
    text.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0x0B || $0 == 0x0C || $0 >= 0x80 }
        && text.unicodeScalars.contains { [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029].contains($0.value) }
}

extension RuleSet {
    /// How much of the rule set the compiled matcher indexes, for `bench` and `explain`.
    public struct MatcherStatistics: Sendable, Codable, Equatable {
        /// Actions found through the literal automaton.
        public var indexedActions: Int
        /// Actions always confirmed by their regex.
        public var alwaysRunActions: Int
        /// Browsers matched and rendered without a regex engine.
        public var trivialBrowsers: Int
        /// Browsers matched with ICU.
        public var regexBrowsers: Int
        /// Previews found through the literal automaton.
        public var indexedPreviews: Int
    }

    /// How much of the rule set the compiled matcher indexes.
    public var matcherStatistics: MatcherStatistics {
        MatcherStatistics(
            indexedActions: actionFilter.indexedCount, alwaysRunActions: actionFilter.alwaysRun.count,
            trivialBrowsers: browsers.count { $0.trivial != nil && $0.templateParts != nil || ($0.trivial != nil && $0.output.needsScript) },
            regexBrowsers: browsers.count { $0.trivial == nil }, indexedPreviews: previewFilter.indexedCount)
    }
}

extension RuleSet {
    /// The literals the prefilter requires for each action (nil: always confirmed), in manifest order.
    public var actionLiterals: [(rule: String, literals: [String]?)] {
        actions.map { ($0.action.pointer.description, RequiredLiterals.of($0.action.regex)) }
    }
}

extension RuleSet {
    /// The actions the prefilter picks for a link (each is then confirmed by its regex), in manifest order.
    public func candidateActions(for link: String) -> [String] {
        let hits = actionFilter.candidates(for: link, count: actions.count)
        return actions.indices.filter { hits[$0] }.map { actions[$0].action.pointer.description }
    }
}
