import LinkRules

// What `switchyard bench` reports about the compiled matcher: `package` access, read by the benchmark target only.

extension RuleSet {
    /// How much of the rule set the compiled matcher indexes, for `bench`.
    package struct MatcherStatistics: Sendable, Codable, Equatable {
        /// Actions found through the literal automaton.
        package var indexedActions: Int
        /// Actions always confirmed by their regex.
        package var alwaysRunActions: Int
        /// Browsers matched and rendered without a regex engine.
        package var trivialBrowsers: Int
        /// Browsers matched with ICU.
        package var regexBrowsers: Int
        /// Previews found through the literal automaton.
        package var indexedPreviews: Int
        /// States of the actions' literal automaton.
        package var automatonStates: Int
        /// Bytes of its transition table (it is read once per link byte, so its size decides cache misses).
        package var automatonTableBytes: Int
    }

    /// How much of the rule set the compiled matcher indexes.
    package var matcherStatistics: MatcherStatistics {
        MatcherStatistics(
            indexedActions: actionFilter.indexedCount,
            alwaysRunActions: actionFilter.alwaysRun.count,
            trivialBrowsers: browsers.count {
                $0.trivial != nil && $0.templateParts != nil || ($0.trivial != nil && $0.output.needsScript)
            },
            regexBrowsers: browsers.count { $0.trivial == nil },
            indexedPreviews: previewFilter.indexedCount,
            automatonStates: actionFilter.automaton.stateCount,
            automatonTableBytes: actionFilter.automaton.tableBytes
        )
    }
}

extension RuleSet {
    /// The actions the prefilter picks for a link (each is then confirmed by its regex), in manifest order.
    package func candidateActions(for link: String) -> [String] {
        let hits = actionFilter.candidates(for: link, count: actions.count)
        return actions.indices.filter { hits[$0] }.map { actions[$0].action.pointer.description }
    }
}
