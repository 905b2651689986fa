import LinkRules

/// Which rule of a catalog did something: its provider, its kind, its index in the provider's list and its pattern.
///
/// Encoded with the keys `provider`, `kind`, `index` (absent for `urlPattern`) and `pattern`, the catalog's own
/// JavaScript text.
public struct CleaningRule: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The catalog field a rule comes from.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The provider's `urlPattern`.
        case urlPattern
        /// `exceptions`: links the provider leaves alone.
        case exceptions
        /// `redirections`: the first group is the real target.
        case redirections
        /// `rawRules`: removed from the whole link.
        case rawRules
        /// `rules`: field names removed from the query and the fragment.
        case rules
        /// `referralMarketing`: field names removed unless referral marketing is allowed.
        case referralMarketing
    }

    /// The provider's name in the catalog.
    public var provider: String
    /// The field the rule comes from.
    public var kind: Kind
    /// The rule's index in that field's list (nil for `urlPattern`).
    public var index: Int?
    /// The rule as the catalog writes it (JavaScript syntax).
    public var pattern: String

    /// Creates a rule reference.
    public init(provider: String, kind: Kind, index: Int?, pattern: String) {
        self.provider = provider
        self.kind = kind
        self.index = index
        self.pattern = pattern
    }

    /// The rule's JSON pointer in the catalog, `/providers/amazon/rules/7`.
    public var pointer: JSONPointer {
        let base = JSONPointer.root.appending("providers").appending(provider).appending(kind.rawValue)
        return index.map { base.appending($0) } ?? base
    }

    /// `providers/amazon/rules/7`: the place, as the diagnostics and `explain` name it.
    public var place: String { String(pointer.description.dropFirst()) }

    /// `providers/amazon/rules/7 "ref_?"`.
    public var description: String { "\(place) \"\(pattern)\"" }
}
