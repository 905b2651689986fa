/// What cleaning one link did: the cleaned link, and which rule removed what.
///
/// A `Codable` document with stable keys (`input`, `link`, `changed`, `blockedBy`, `skipped`, `timedOut`, `steps`),
/// so a resolution document can carry it as it is.
public struct CleaningResult: Sendable, Hashable, Codable {
    /// The link as given (canonical text).
    public var input: String
    /// The cleaned link: the input with tracking fields and parts removed and redirects unwrapped; everything else
    /// byte for byte as it was.
    public var link: String
    /// Whether ``link`` differs from ``input``.
    public var changed: Bool
    /// The complete provider whose `urlPattern` the link matched: the add-on would block the request. A cleaner
    /// reports it and still returns the link.
    public var blockedBy: String?
    /// Whether the caller's ``CleaningOptions/skip`` left the link (or the target it was unwrapped to) alone.
    public var skipped: Bool
    /// Whether a regex ran out of the time limit (``CleaningOptions/timeLimit``); it was taken as "no match".
    public var timedOut: Bool
    /// Each removal and unwrapping, in the order it happened.
    public var steps: [CleaningStep]

    /// Creates a result.
    public init(
        input: String,
        link: String,
        blockedBy: String? = nil,
        skipped: Bool = false,
        timedOut: Bool = false,
        steps: [CleaningStep] = []
    ) {
        self.input = input
        self.link = link
        self.changed = input != link
        self.blockedBy = blockedBy
        self.skipped = skipped
        self.timedOut = timedOut
        self.steps = steps
    }
}

/// One thing a rule did to a link.
public struct CleaningStep: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What was done.
    public enum Action: String, Sendable, Hashable, Codable {
        /// A `name=value` field was removed from the query or the fragment (`rules`, `referralMarketing`).
        case removedField
        /// Text matched by a raw rule was removed from the link.
        case removedText
        /// A redirect link was replaced by its target (`redirections`).
        case unwrapped
    }

    /// Where a removed field was.
    public enum Part: String, Sendable, Hashable, Codable {
        /// The query (`?a=1&b=2`).
        case query
        /// A fragment written as fields (`#a=1&b=2`).
        case fragment
    }

    /// What was done.
    public var action: Action
    /// The rule that did it.
    public var rule: CleaningRule
    /// The field as written (`utm_source=feed`), the text removed, or the target unwrapped to.
    public var text: String
    /// For a removed field, where it was.
    public var part: Part?

    /// Creates a step.
    public init(action: Action, rule: CleaningRule, text: String, part: Part? = nil) {
        self.action = action
        self.rule = rule
        self.text = text
        self.part = part
    }

    /// `removed utm_source=feed (query) by providers/globalRules/rules/0 "utm_source"`.
    public var description: String {
        switch action {
        case .removedField: "removed \(text) (\(part?.rawValue ?? "query")) by \(rule)"
        case .removedText: "removed \"\(text)\" by \(rule)"
        case .unwrapped: "unwrapped to \(text) by \(rule)"
        }
    }
}
