import LinkRules

/// One way to open a link: an app (or browser) and the native URL it gets, or a preview image.
///
/// Its JSON is the same wherever an opening is shown (`resolve --json`, `explain --json`, batch lines, the HTTP
/// API): `{"kind", "app", "appName", "title", "url", "needsScript", "scheme", "storeId", "iconURL", "rule",
/// "error", "layer", "preferred"}`, with `url` an explicit null while there is none; `layer` and `preferred` appear
/// only when the user's own layer or a remembered choice decided something.
public struct Opening: Sendable, Equatable {
    /// What produced the opening.
    public enum Kind: String, Sendable, Codable {
        /// An action's format.
        case action
        /// A browser.
        case browser
        /// A preview.
        case preview
        /// A universal link (iOS): the https link itself, which the app its domain's apple-app-site-association file
        /// claims it for opens (an opening stage of the resolver, `DomainClaimsStage`).
        case universalLink = "universal-link"
        /// An Android App Link: `intent://…#Intent;scheme=https;package=…;end` for an app the domain's
        /// `assetlinks.json` trusts.
        case appLink = "app-link"
    }

    /// Action, browser or preview.
    public var kind: Kind
    /// The app that opens the URL (nil for previews).
    public var app: OpeningApp?
    /// The action title ("Open Tweet"), the browser's name, or "Preview".
    public var title: String
    /// Where the rule that produced it is defined: in the manifest (`/actions/3/formats/1`), or, for the openings a
    /// domain's claims gave, in the claims file ``claim`` names (`/applinks/details/0/components/2`).
    public var rule: JSONPointer
    /// The native URL; nil while a script must still run (see ``needsScript``) or when none was produced.
    public var url: String?
    /// Whether the URL comes from a script that has not run yet.
    public var needsScript: Bool
    /// Why there is no URL, when the template's output was refused or the script failed.
    public var error: OpeningError?
    /// The script that produces the URL (nil for templates); the resolver runs it, the matcher never does.
    public var script: RuleScript?
    /// For previews: whether the image may be saved (the manifest's `canSave`); nil for other kinds.
    public var canSave: Bool? = nil
    /// The layer whose rule produced the opening: nil for the manifest, ``RuleLayer/user`` for the user's own rules.
    public var layer: RuleLayer? = nil
    /// Why this opening is the one to use first, when the user said so (nil otherwise).
    public var preferred: OpeningPreference? = nil
    /// For `universal-link` and `app-link` openings: the claims file whose rule gave it, and its age.
    public var claim: OpeningClaim? {
        get { claimStorage?.claim }
        set { claimStorage = newValue.map(ClaimStorage.init) }
    }
    /// ``claim``, out of line: only claimed openings have one, and every opening the matcher makes is moved and
    /// copied, so a claim held inline (some 40 bytes more per opening) slowed every resolution.
    var claimStorage: ClaimStorage? = nil

    // No initialiser in this body: the matcher builds openings with the synthesized memberwise one, which the
    // optimiser moves straight into the result array; with an explicit initialiser every appended opening was
    // copied and destroyed once more (a tenth of the compiled matcher's time). The public one is in an extension.
}

extension Opening {
    /// Creates an opening (a script opening made this way carries no script to run).
    public init(
        kind: Kind,
        app: OpeningApp?,
        title: String,
        url: String?,
        rule: JSONPointer,
        needsScript: Bool = false,
        error: OpeningError? = nil
    ) {
        self.init(
            kind: kind,
            app: app,
            title: title,
            rule: rule,
            url: url,
            needsScript: needsScript,
            error: error,
            script: nil
        )
    }
}

/// The layer a rule comes from, when it is not the manifest's.
public enum RuleLayer: String, Sendable, Codable {
    /// The user's own layer over the manifest (overrides, added actions and redirect rules).
    case user
}

/// Why an opening is preferred: `{"by", "reason"}`.
public struct OpeningPreference: Sendable, Equatable, Codable {
    /// Who preferred it.
    public enum Source: String, Sendable, Codable {
        /// The user layer's `prefer` list.
        case userLayer = "user-layer"
        /// A choice remembered for the link's site (`AppChooser`).
        case rememberedSite = "remembered-site"
        /// The default remembered for the opening's kind of app: the default browser (`AppChooser`).
        case rememberedDefault = "remembered-default"
    }

    /// Who preferred it.
    public var by: Source
    /// What said so: the user layer's pointer (`/prefer/0`), the remembered site (`example.com`) or the app type whose
    /// default it is (`browser`).
    public var reason: String

    /// Creates a preference.
    public init(by: Source, reason: String) {
        self.by = by
        self.reason = reason
    }
}

/// An opening's claim, held out of line (see ``Opening/claim``).
final class ClaimStorage: Sendable, Equatable {
    let claim: OpeningClaim

    init(_ claim: OpeningClaim) {
        self.claim = claim
    }

    static func == (lhs: ClaimStorage, rhs: ClaimStorage) -> Bool { lhs.claim == rhs.claim }
}

/// Where a claimed opening comes from: `{"file", "rule", "age"}`, the claims file's URL, the rule as a JSON pointer into
/// that file, and how old the copy of the file was, in whole seconds.
public struct OpeningClaim: Sendable, Equatable, Codable {
    /// The URL of the file that claims the link (`https://example.com/.well-known/apple-app-site-association`).
    public var file: String
    /// The claim's rule: a JSON pointer into ``file``.
    public var rule: JSONPointer
    /// How old the file's copy was when the resolution used it, in whole seconds (zero: fetched now).
    public var age: Int

    /// Creates a claim.
    public init(file: String, rule: JSONPointer, age: Int) {
        self.file = file
        self.rule = rule
        self.age = age
    }
}

/// Why an opening has no URL: `{"code", "message"}`, like every other error Switchyard reports.
public struct OpeningError: Sendable, Equatable, Codable, CustomStringConvertible {
    /// A stable code (`E_UNSAFE_OUTPUT`, `E_SCRIPT_TIMEOUT`, `E_NO_RESULT`, …).
    public var code: String
    /// One sentence for a person.
    public var message: String

    /// Creates an error.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    /// A template's or script's output that `OutputSafety` (LinkRules) refuses.
    public static func unsafeOutput(_ problem: String) -> OpeningError {
        OpeningError(code: "E_UNSAFE_OUTPUT", message: problem)
    }

    /// `message [code]`.
    public var description: String { "\(message) [\(code)]" }
}

/// The metadata of the app behind an opening, as the manifest gives it.
///
/// A class: one rule set's openings all share the instance made at compile time, so listing fifty openings per
/// link retains fifty references instead of copying eight fields each (measured: a third of the compiled
/// resolver's time went to such copies).
public final class OpeningApp: Sendable, Equatable {
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
    /// The device family the app is limited to.
    public let platform: Platform?
    /// A country code when the app is not global.
    public let country: String?
    /// The app's members of an opening's document, written once (they sit apart in its sorted keys): `app` and
    /// `appName`; `iconURL`; `scheme` (left out when empty: a claimed app the manifest does not name has none) and
    /// `storeId`.
    let documentHead: PrewrittenMembers
    let documentIcon: PrewrittenMembers
    let documentTail: PrewrittenMembers

    /// Two apps are equal when every field is.
    public static func == (lhs: OpeningApp, rhs: OpeningApp) -> Bool {
        lhs.identifier == rhs.identifier && lhs.name == rhs.name && lhs.scheme == rhs.scheme
            && lhs.storeId == rhs.storeId && lhs.macStoreId == rhs.macStoreId && lhs.iconURL == rhs.iconURL
            && lhs.platform == rhs.platform && lhs.country == rhs.country
    }

    /// Creates app metadata from a manifest app.
    public convenience init(_ app: App) {
        self.init(
            identifier: app.identifier,
            name: app.name,
            scheme: app.scheme,
            storeId: app.storeId,
            macStoreId: app.macStoreId,
            iconURL: app.iconURL,
            platform: app.platform,
            country: app.country
        )
    }

    /// Creates app metadata from its fields.
    public init(
        identifier: String,
        name: String,
        scheme: String,
        storeId: Int? = nil,
        macStoreId: Int? = nil,
        iconURL: String? = nil,
        platform: Platform? = nil,
        country: String? = nil
    ) {
        self.identifier = identifier
        self.name = name
        self.scheme = scheme
        self.storeId = storeId
        self.macStoreId = macStoreId
        self.iconURL = iconURL
        self.platform = platform
        self.country = country
        documentHead = PrewrittenMembers {
            $0.write("app", identifier)
            $0.write("appName", name)
        }
        documentIcon = PrewrittenMembers { $0.write("iconURL", iconURL) }
        documentTail = PrewrittenMembers {
            $0.write("scheme", scheme.isEmpty ? nil : scheme)
            $0.write("storeId", storeId)
        }
    }
}

extension Opening: Codable {
    private enum CodingKeys: String, CodingKey {
        case kind, app, appName, title, url, needsScript, scheme, storeId, iconURL, rule, error, canSave, layer,
            preferred, claim
    }

    /// Decodes the flat document shape (a client reading a document; the script is not part of it).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let identifier = try container.decodeIfPresent(String.self, forKey: .app)
        self.init(
            kind: try container.decode(Kind.self, forKey: .kind),
            app: try identifier.map { identifier in
                OpeningApp(
                    identifier: identifier,
                    name: try container.decodeIfPresent(String.self, forKey: .appName) ?? identifier,
                    scheme: try container.decodeIfPresent(String.self, forKey: .scheme) ?? "",
                    storeId: try container.decodeIfPresent(Int.self, forKey: .storeId),
                    iconURL: try container.decodeIfPresent(String.self, forKey: .iconURL)
                )
            },
            title: try container.decode(String.self, forKey: .title),
            url: try container.decodeIfPresent(String.self, forKey: .url),
            rule: try container.decode(JSONPointer.self, forKey: .rule),
            needsScript: try container.decode(Bool.self, forKey: .needsScript),
            error: try container.decodeIfPresent(OpeningError.self, forKey: .error)
        )
        canSave = try container.decodeIfPresent(Bool.self, forKey: .canSave)
        layer = try container.decodeIfPresent(RuleLayer.self, forKey: .layer)
        preferred = try container.decodeIfPresent(OpeningPreference.self, forKey: .preferred)
        claim = try container.decodeIfPresent(OpeningClaim.self, forKey: .claim)
    }
}
