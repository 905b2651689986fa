import LinkMatching
/// The JSON shape of a resolution shared by `switchyard resolve --json`, `--batch` and the HTTP API:
/// `{"input", "unwrapped", "steps", "openings": [{"kind", "app", "appName", "title", "url", "needsScript", …}]}`.
public struct ResolutionDocument: Sendable, Equatable, Codable {
    /// One opening in the document.
    public struct Entry: Sendable, Equatable, Codable {
        /// `action`, `browser` or `preview`.
        public var kind: String
        /// The app identifier (nil for previews).
        public var app: String?
        /// The app's name (nil for previews).
        public var appName: String?
        /// The action title, browser name or "Preview".
        public var title: String
        /// The native URL; null while a script must run or when it produced none.
        public var url: String?
        /// Whether a script produces the URL.
        public var needsScript: Bool
        /// The app's URL scheme.
        public var scheme: String?
        /// The App Store id.
        public var storeId: Int?
        /// The app's icon URL.
        public var iconURL: String?
        /// The rule that produced it (JSON pointer).
        public var rule: String
        /// Why a script produced no URL.
        public var error: String?

        private enum CodingKeys: String, CodingKey {
            case kind, app, appName, title, url, needsScript, scheme, storeId, iconURL, rule, error
        }

        /// Encodes `url` as an explicit null when absent (the documented shape); other optionals are omitted.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encodeIfPresent(app, forKey: .app)
            try container.encodeIfPresent(appName, forKey: .appName)
            try container.encode(title, forKey: .title)
            try container.encode(url, forKey: .url)
            try container.encode(needsScript, forKey: .needsScript)
            try container.encodeIfPresent(scheme, forKey: .scheme)
            try container.encodeIfPresent(storeId, forKey: .storeId)
            try container.encodeIfPresent(iconURL, forKey: .iconURL)
            try container.encode(rule, forKey: .rule)
            try container.encodeIfPresent(error, forKey: .error)
        }
    }

    /// The input as given.
    public var input: String
    /// The link after unwrapping.
    public var unwrapped: String
    /// The unwrapping steps.
    public var steps: [UnwrapStep]
    /// The openings in order.
    public var openings: [Entry]
    /// Rules skipped because their regex ran out of time.
    public var timedOutRules: [String]

    /// The document for a resolution.
    public init(_ resolution: Resolution) {
        input = resolution.input
        unwrapped = resolution.unwrapped
        steps = resolution.steps
        timedOutRules = resolution.timedOutRules
        openings = resolution.openings.map { opening in
            Entry(
                kind: opening.kind.rawValue, app: opening.app?.identifier, appName: opening.app?.name,
                title: opening.title, url: opening.url, needsScript: opening.needsScript, scheme: opening.app?.scheme,
                storeId: opening.app?.storeId, iconURL: opening.app?.iconURL, rule: opening.rule,
                error: opening.scriptError)
        }
    }
}
