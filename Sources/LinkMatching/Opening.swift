import LinkRules

/// One way to open a link: an app (or browser) and the native URL it gets, or a preview image.
public struct Opening: Sendable, Equatable, Codable {
    /// What produced the opening.
    public enum Kind: String, Sendable, Codable {
        case action
        case browser
        case preview
    }

    /// Action, browser or preview.
    public var kind: Kind
    /// The app that opens the URL (nil for previews).
    public var app: OpeningApp?
    /// The action title ("Open Tweet"), the browser's name, or "Preview".
    public var title: String
    /// The JSON pointer of the rule that produced it (`/actions/3/formats/1`).
    public var rule: String
    /// The native URL; nil while a script must still run (see ``needsScript``) or when it produced nothing.
    public var url: String?
    /// Whether the URL comes from a script that has not run yet.
    public var needsScript: Bool
    /// Why a script produced no URL, when it ran and failed.
    public var scriptError: String?

    // No initialiser in this body: the resolver builds openings with the synthesized memberwise one
    // (`kind:app:title:rule:url:needsScript:scriptError:`), which the optimiser moves straight into the result array;
    // with an explicit initialiser every appended opening was copied and destroyed once more (a tenth of the
    // compiled resolver's time). The public initialiser is in the extension below.
}

extension Opening {
    /// Creates an opening.
    public init(
        kind: Kind, app: OpeningApp?, title: String, url: String?, needsScript: Bool, rule: String,
        scriptError: String? = nil
    ) {
        self.init(kind: kind, app: app, title: title, rule: rule, url: url, needsScript: needsScript, scriptError: scriptError)
    }
}

/// The metadata of the app behind an opening, as the manifest gives it.
///
/// A class: one rule set's openings all share the instance made at compile time, so listing fifty openings per
/// link retains fifty references instead of copying eight fields each (measured: a third of the compiled
/// resolver's time went to such copies).
public final class OpeningApp: Sendable, Equatable, Codable {
    /// The app identifier.
    public let identifier: String
    /// The user-facing name.
    public let name: String
    /// The URL scheme (without `://`).
    public let scheme: String
    /// The App Store id.
    public let storeId: Int?
    /// The Mac App Store id.
    public let macStoreId: Int?
    /// An icon URL.
    public let iconURL: String?
    /// `phone` or `pad` when the app is limited to one.
    public let platform: String?
    /// A country code when the app is not global.
    public let country: String?

    /// Two apps are equal when every field is.
    public static func == (lhs: OpeningApp, rhs: OpeningApp) -> Bool {
        lhs.identifier == rhs.identifier && lhs.name == rhs.name && lhs.scheme == rhs.scheme
            && lhs.storeId == rhs.storeId && lhs.macStoreId == rhs.macStoreId && lhs.iconURL == rhs.iconURL
            && lhs.platform == rhs.platform && lhs.country == rhs.country
    }

    /// Creates app metadata from a manifest app.
    public init(_ app: App) {
        identifier = app.identifier
        name = app.name
        scheme = app.scheme
        storeId = app.storeId
        macStoreId = app.macStoreId
        iconURL = app.iconURL
        platform = app.platform?.rawValue
        country = app.country
    }
}

/// Everything Switchyard found for one input link.
public struct Resolution: Sendable, Equatable, Codable {
    /// The input as given.
    public var input: String
    /// The link after redirect rules (and HTTP redirects, when followed).
    public var unwrapped: String
    /// Each unwrapping step, in order.
    public var steps: [UnwrapStep]
    /// Every opening: actions × formats in manifest order, then browsers, then previews.
    public var openings: [Opening]
    /// Rules skipped for this input because their regex ran out of time.
    public var timedOutRules: [String]

    /// Creates a resolution.
    public init(input: String, unwrapped: String, steps: [UnwrapStep] = [], openings: [Opening] = [], timedOutRules: [String] = []) {
        self.input = input
        self.unwrapped = unwrapped
        self.steps = steps
        self.openings = openings
        self.timedOutRules = timedOutRules
    }
}

/// One step that changed the link before matching.
public struct UnwrapStep: Sendable, Equatable, Codable {
    /// `redirect-rule` (a static rule) or `http-redirect` (a followed HTTP redirect).
    public var kind: String
    /// The redirect rule's pattern or the HTTP status.
    public var rule: String
    /// The link before the step.
    public var from: String
    /// The link after the step.
    public var to: String

    /// Creates a step.
    public init(kind: String, rule: String, from: String, to: String) {
        self.kind = kind
        self.rule = rule
        self.from = from
        self.to = to
    }
}
