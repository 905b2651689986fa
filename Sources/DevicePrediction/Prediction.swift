import WebLinks

/// What a tap on a link opens on a device, what the system would offer, and the rules that decided, in order.
public struct Prediction: Sendable, Equatable, Encodable {
    /// What opens.
    public enum Outcome: Sendable, Equatable {
        /// One app opens it directly: an Android package or an iOS app ID.
        case app(String)
        /// Android's browser: the default browser, or the browser chooser when none is set (``Prediction/candidates``).
        case browser
        /// Android's chooser, offering ``Prediction/candidates``.
        case chooser
        /// iOS's Safari.
        case safari
        /// Nothing on the device opens it.
        case nothing

        /// `com.a`, `browser`, `chooser`, `safari` or `none`: the protocol's `opens`.
        public var text: String {
            switch self {
            case .app(let id): id
            case .browser: "browser"
            case .chooser: "chooser"
            case .safari: "safari"
            case .nothing: "none"
            }
        }
    }

    /// The platform: `android` or `ios`.
    public var platform: String
    /// The link, canonical for a web link.
    public var link: String
    /// What opens.
    public var outcome: Outcome
    /// The packages or app IDs the system would offer: the app that opens it; for Android's browser, the browsers; for
    /// the chooser, every app and browser offered; on iOS, every claimed app when several are.
    public var candidates: [String]
    /// Why, rule by rule, in the order they were applied.
    public var reasons: [PredictionReason]

    /// A prediction.
    public init(
        platform: String,
        link: String,
        outcome: Outcome,
        candidates: [String],
        reasons: [PredictionReason]
    ) {
        self.platform = platform
        self.link = link
        self.outcome = outcome
        self.candidates = candidates
        self.reasons = reasons
    }

    private enum CodingKeys: String, CodingKey {
        case platform, link, opens, candidates, reasons
    }

    /// `{"platform", "link", "opens", "candidates", "reasons": [{"rule", "text", "app"?, "pointer"?}]}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(platform, forKey: .platform)
        try container.encode(link, forKey: .link)
        try container.encode(outcome.text, forKey: .opens)
        try container.encode(candidates, forKey: .candidates)
        try container.encode(reasons, forKey: .reasons)
    }
}

/// One rule applied on the way to a prediction.
public struct PredictionReason: Sendable, Equatable, Encodable {
    /// The rule, a stable name (`filter-match`, `verified`, `same-domain`, …): what a client tests for.
    public var rule: String
    /// What it found, in a sentence.
    public var text: String
    /// The package or app ID it is about, when one.
    public var app: String?
    /// Where in the device file the fact comes from, when one place.
    public var pointer: JSONPointer?

    /// A reason.
    public init(_ rule: String, _ text: String, app: String? = nil, pointer: JSONPointer? = nil) {
        self.rule = rule
        self.text = text
        self.app = app
        self.pointer = pointer
    }
}

/// Why a device file or a link cannot be predicted: one sentence, naming the JSON pointer at fault when one is.
public struct PredictionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The sentence (without the pointer).
    public var message: String
    /// The place in the device file.
    public var pointer: JSONPointer?
    /// The line and column of that place, when read from a text.
    public var position: SourcePosition?

    /// An error.
    public init(_ message: String, at pointer: JSONPointer? = nil, position: SourcePosition? = nil) {
        self.message = message
        self.pointer = pointer
        self.position = position
    }

    /// `/apps/0/enabled: message`, or the message alone.
    public var description: String {
        guard let pointer else { return message }
        return "\(pointer.tokens.isEmpty ? "the document" : pointer.description): \(message)"
    }
}
