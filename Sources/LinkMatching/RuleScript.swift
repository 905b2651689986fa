import LinkRules

/// A rule's script (`script2` or legacy `script`), as the compiled format, browser or preview that uses it holds it.
///
/// The matcher never runs it: an opening that needs it carries it (``Opening/script``), and the resolver runs it
/// with the engine that compiled the rule set's scripts (``RuleSet/scripts``) when it was given the rule set. One
/// object per script output of the rule set: identity is what tells two scripts apart.
public final class RuleScript: Sendable, Hashable, CustomStringConvertible {
    /// Which field the script came from.
    public enum Kind: String, Sendable {
        /// `script2`: JavaScriptCore with the host helpers.
        case script2
        /// Legacy `script` (v1–v3), written for a web view.
        case legacy = "script"
    }

    /// The JavaScript source.
    public let source: String
    /// `script2` or legacy `script`.
    public let kind: Kind
    /// The format, browser or preview it belongs to.
    public let rule: JSONPointer
    /// Whether it belongs to a `headers` action: its input is `URL + "\n" + headers JSON`, as the regex's.
    public let matchesHeaders: Bool

    init(source: String, kind: Kind, rule: JSONPointer, matchesHeaders: Bool) {
        self.source = source
        self.kind = kind
        self.rule = rule
        self.matchesHeaders = matchesHeaders
    }

    /// The same object: one rule set's script output.
    public static func == (lhs: RuleScript, rhs: RuleScript) -> Bool {
        lhs === rhs
    }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }

    /// The rule's pointer and field (`/actions/3/formats/1/script2`).
    public var description: String { rule.appending(kind.rawValue).description }
}

extension RuleScript {
    /// The script of an output (nil for a template).
    convenience init?(_ output: Output, rule: JSONPointer, matchesHeaders: Bool) {
        guard case .script(let source, let legacy) = output else { return nil }
        self.init(source: source, kind: legacy ? .legacy : .script2, rule: rule, matchesHeaders: matchesHeaders)
    }
}
