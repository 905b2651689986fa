import LinkWrappers

/// The user's own layer over a rule set: a small versioned JSON file (`{"switchyardUserLayer": 1, …}`) loaded beside
/// the bundled or downloaded manifest and kept when that manifest is updated.
///
/// It disables manifest entries (``disable``), leaves sites alone (``sites``), prefers or hides apps (``prefer``,
/// ``hide``), decides by the app a link came from (``when``), adds actions and redirect rules of its own
/// (``rules``, in the manifest's format, decoded by the manifest's decoder), adds link wrappers and switches built-in
/// ones off (``wrappers``, ``disabledWrappers``), and says which link browsers open for a wrapped one
/// (``opensWrapped``). `Docs/UserLayer.md` documents the file and its precedence; `Docs/user-layer.schema.json` is its
/// JSON Schema.
public struct UserLayer: Sendable, Equatable {
    /// The format version this Switchyard reads (`"switchyardUserLayer": 1`).
    public static let currentVersion = 1

    /// The format version of the file.
    public var version: Int
    /// Manifest entries left out, whatever the link.
    public var disable: [RuleReference]
    /// Sites whose links the manifest's actions and redirect rules leave alone.
    public var sites: [SiteRule]
    /// Apps whose openings are marked preferred, whatever the link.
    public var prefer: [AppReference]
    /// Apps whose openings are never listed, whatever the layer that made them.
    public var hide: [AppReference]
    /// Entries that apply only to links from some apps or to some sites.
    public var when: [LayerCondition]
    /// The layer's own apps, actions and redirect rules, in the manifest's format; their pointers point into the
    /// layer file (`/actions/0/formats/0`).
    public var rules: Manifest
    /// The layer's own link wrappers (`wrappers`, in the built-in catalog's format), tried before the built-in ones;
    /// one with the identifier of a built-in wrapper replaces it.
    public var wrappers: [LinkWrapper] = []
    /// Built-in link wrappers switched off, by identifier (`disableWrappers`).
    public var disabledWrappers: [WrapperReference] = []
    /// Whether a browser opening of a wrapped link opens the original wrapped link (`openWrapped`), so that the
    /// gateway's click-time check runs; nil when the layer does not say (the inner link, unless the request asks).
    public var opensWrapped: Bool? = nil

    /// Creates a layer.
    public init(
        version: Int = UserLayer.currentVersion,
        disable: [RuleReference] = [],
        sites: [SiteRule] = [],
        prefer: [AppReference] = [],
        hide: [AppReference] = [],
        when: [LayerCondition] = [],
        rules: Manifest = Manifest()
    ) {
        self.version = version
        self.disable = disable
        self.sites = sites
        self.prefer = prefer
        self.hide = hide
        self.when = when
        self.rules = rules
    }

    /// Whether the cleaning stage must leave links to `host` as they are (a ``SiteRule/skipsCleaning`` site).
    public func skipsCleaning(host: String) -> Bool {
        sites.contains { $0.skipsCleaning && $0.matches(host: host) }
    }

    /// Whether the resolver leaves the domain claims of links to `host` unread (a ``SiteRule/skipsClaims`` site).
    public func skipsClaims(host: String) -> SiteRule? {
        sites.first { $0.skipsClaims && $0.matches(host: host) }
    }

    /// The top-level keys of the file.
    public static let keys: Set<String> = [
        "switchyardUserLayer", "$schema", "disable", "sites", "prefer", "hide", "when", "apps", "actions", "redirects",
        "wrappers", "disableWrappers", "openWrapped",
    ]
}

/// A manifest entry named by the user layer, with where the layer names it.
public struct RuleReference: Sendable, Equatable, CustomStringConvertible {
    /// What is named.
    public enum Target: Sendable, Equatable {
        /// Every action format of the app and every browser that is this app (`{"app": "twitter"}`).
        case app(String)
        /// The browser with this identifier (`{"browser": "firefox"}`).
        case browser(String)
        /// Actions with this title; with `appId`, only their formats for that app (`{"action": "Open Tweet"}`).
        case action(title: String, appId: String?)
        /// The redirect rule with this regex (`{"redirect": "^https?://t\\.co/"}`).
        case redirect(String)
        /// The entry at this pointer of the manifest (`"/actions/12"`, `"/actions/12/formats/0"`, `"/browsers/3"`).
        case pointer(JSONPointer)
    }

    /// What is named.
    public var target: Target
    /// Where the layer names it (`/disable/0`).
    public var pointer: JSONPointer

    /// Creates a reference.
    public init(_ target: Target, at pointer: JSONPointer) {
        self.target = target
        self.pointer = pointer
    }

    /// `app "twitter"`, `action "Open Tweet" for "twitter"`, `pointer /actions/12` …
    public var description: String {
        switch target {
        case .app(let identifier): "app \"\(identifier)\""
        case .browser(let identifier): "browser \"\(identifier)\""
        case .action(let title, nil): "action \"\(title)\""
        case .action(let title, let appId?): "action \"\(title)\" for \"\(appId)\""
        case .redirect(let pattern): "redirect rule \"\(pattern)\""
        case .pointer(let pointer): "pointer \(pointer)"
        }
    }
}

/// A built-in link wrapper the user layer switches off (`disableWrappers`), by its identifier, with where the layer
/// names it.
public struct WrapperReference: Sendable, Equatable {
    /// The wrapper's identifier (`proofpoint-v3`).
    public var identifier: String
    /// Where the layer names it (`/disableWrappers/0`).
    public var pointer: JSONPointer

    /// Creates a reference.
    public init(_ identifier: String, at pointer: JSONPointer) {
        self.identifier = identifier
        self.pointer = pointer
    }
}

/// An app named by the user layer (`prefer`, `hide`), with where the layer names it.
public struct AppReference: Sendable, Equatable {
    /// The app identifier, as the manifest's `apps` and `browsers` give it.
    public var identifier: String
    /// Where the layer names it (`/prefer/0`).
    public var pointer: JSONPointer

    /// Creates a reference.
    public init(_ identifier: String, at pointer: JSONPointer) {
        self.identifier = identifier
        self.pointer = pointer
    }
}

/// Sites the manifest leaves alone: `{"hosts": ["bank.example", "*.bank.example"], "skipCleaning": true}`; with
/// `"skipManifest": false` a site entry only turns off cleaning (`skipCleaning`) or the domain's claims
/// (`skipClaims`).
public struct SiteRule: Sendable, Equatable {
    /// The sites.
    public var hosts: [HostPattern]
    /// Whether the manifest's actions and redirect rules are left out for these sites (`skipManifest`, default
    /// true): their links open in browsers only (and in the layer's own actions).
    public var skipsManifest: Bool
    /// Whether the cleaning stage leaves their links as they are (`skipCleaning`, default false).
    public var skipsCleaning: Bool
    /// Whether the resolver leaves their domain claims unread (`skipClaims`, default false): no universal-link or
    /// app-link openings for their links.
    public var skipsClaims: Bool
    /// Where the layer defines it (`/sites/0`).
    public var pointer: JSONPointer

    /// Creates a site rule.
    public init(
        hosts: [HostPattern],
        skipsManifest: Bool = true,
        skipsCleaning: Bool = false,
        skipsClaims: Bool = false,
        at pointer: JSONPointer
    ) {
        self.hosts = hosts
        self.skipsManifest = skipsManifest
        self.skipsCleaning = skipsCleaning
        self.skipsClaims = skipsClaims
        self.pointer = pointer
    }

    /// Whether `host` is one of the sites.
    public func matches(host: String) -> Bool {
        hosts.contains { $0.matches(host: host) }
    }

    /// The keys of a site object.
    public static let keys: Set<String> = ["hosts", "skipManifest", "skipCleaning", "skipClaims"]
}

/// Entries that apply to some links only: those from some apps (``sourceApps``) and/or to some sites (``hosts``).
///
/// `{"sourceApps": ["com.tinyspeck.*"], "browserOnly": true}`: links from Slack open in the browser, never an app.
public struct LayerCondition: Sendable, Equatable {
    /// The apps the link must come from (empty: any, or none given).
    public var sourceApps: [SourceAppPattern]
    /// The sites the link must be on (empty: any).
    public var hosts: [HostPattern]
    /// Whether no action opening is listed (browsers and previews only).
    public var browserOnly: Bool
    /// Manifest entries left out.
    public var disable: [RuleReference]
    /// Apps whose openings are never listed.
    public var hide: [AppReference]
    /// Apps whose openings are marked preferred.
    public var prefer: [AppReference]
    /// Where the layer defines it (`/when/0`).
    public var pointer: JSONPointer

    /// Creates a condition.
    public init(
        sourceApps: [SourceAppPattern] = [],
        hosts: [HostPattern] = [],
        browserOnly: Bool = false,
        disable: [RuleReference] = [],
        hide: [AppReference] = [],
        prefer: [AppReference] = [],
        at pointer: JSONPointer
    ) {
        self.sourceApps = sourceApps
        self.hosts = hosts
        self.browserOnly = browserOnly
        self.disable = disable
        self.hide = hide
        self.prefer = prefer
        self.pointer = pointer
    }

    /// Whether it applies to a link to `host` that came from `sourceApp` (nil: not said).
    public func applies(sourceApp: String?, host: String) -> Bool {
        if !sourceApps.isEmpty {
            guard let sourceApp, sourceApps.contains(where: { $0.matches(sourceApp) }) else { return false }
        }
        return hosts.isEmpty || hosts.contains { $0.matches(host: host) }
    }

    /// The keys of a `when` object.
    public static let keys: Set<String> = ["sourceApps", "hosts", "browserOnly", "disable", "hide", "prefer"]
}
