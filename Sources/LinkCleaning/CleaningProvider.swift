import LinkMatching

/// One provider of a ClearURLs catalog: the links it applies to and the rules it applies, with every regex already
/// translated from JavaScript and compiled (refused ones are left out and reported by the catalog).
public struct CleaningProvider: Sendable, Equatable {
    /// The provider's name (its key in the catalog).
    public var name: String
    /// The links the provider applies to.
    public var urlPattern: CleaningPattern
    /// Whether every matching link is blocked outright.
    public var completeProvider: Bool
    /// Field names removed from the query and a fragment written as fields (matched as `^RULE$`).
    public var rules: [CleaningPattern]
    /// Patterns removed from the whole link.
    public var rawRules: [CleaningPattern]
    /// Field names removed unless referral marketing is allowed (matched as `^RULE$`).
    public var referralMarketing: [CleaningPattern]
    /// Links the provider leaves alone.
    public var exceptions: [CleaningPattern]
    /// Patterns whose first group is the real target of a redirect link.
    public var redirections: [CleaningPattern]
    /// The add-on's browser-only flag (the redirect is written into the main frame); kept, with no other meaning here.
    public var forceRedirection: Bool
}

/// One regex of a catalog: where it is, the JavaScript text, and its ICU translation, compiled once.
public struct CleaningPattern: Sendable, Equatable, CustomStringConvertible {
    /// Which rule this is.
    public let rule: CleaningRule
    /// The ICU pattern run for it: the translation, case-insensitive, anchored as `^RULE$` for field names.
    public let icuPattern: String
    /// The compiled ICU regex.
    package let regex: CompiledRegex

    package init(rule: CleaningRule, icuPattern: String, regex: CompiledRegex) {
        self.rule = rule
        self.icuPattern = icuPattern
        self.regex = regex
    }

    /// The catalog's text of the regex.
    public var source: String { rule.pattern }

    /// The rule's place and pattern.
    public var description: String { rule.description }

    /// Two patterns are equal when they are the same rule with the same translation.
    public static func == (lhs: CleaningPattern, rhs: CleaningPattern) -> Bool {
        lhs.rule == rhs.rule && lhs.icuPattern == rhs.icuPattern
    }
}
