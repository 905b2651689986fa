/// An Opener-format rule set: apps, the actions that turn web links into app links, browsers, previews and
/// redirect rules. Decoded from any manifest version (v1–v5) by ``ManifestLoader``.
public struct Manifest: Sendable, Equatable {
    /// The manifest version detected from the content (v1–v5).
    public var version: ManifestVersion
    /// Apps in file order.
    public var apps: [App]
    /// Actions in file order.
    public var actions: [Action]
    /// Browsers in file order: apps that open any http(s) link.
    public var browsers: [Browser]
    /// Preview rules (thumbnail images for links).
    public var previews: [Preview]
    /// Redirect rules in file order (they apply in that order).
    public var redirects: [RedirectRule]
    /// Top-level keys Switchyard does not use, kept so that tools can write them back.
    public var extras: [JSONMember]

    /// Creates a manifest.
    public init(
        version: ManifestVersion = .v5,
        apps: [App] = [],
        actions: [Action] = [],
        browsers: [Browser] = [],
        previews: [Preview] = [],
        redirects: [RedirectRule] = [],
        extras: [JSONMember] = []
    ) {
        self.version = version
        self.apps = apps
        self.actions = actions
        self.browsers = browsers
        self.previews = previews
        self.redirects = redirects
        self.extras = extras
    }

    /// The app with this identifier (apps first, then inline apps of formats).
    public func app(withIdentifier identifier: String) -> App? {
        apps.first { $0.identifier == identifier }
    }
}

/// The major version of the manifest format (the `-vN` suffix of Opener's file names).
public enum ManifestVersion: Int, Sendable, Hashable, Comparable, CaseIterable, Codable, CustomStringConvertible {
    /// `name`/`storeIdentifier` (string, required), `scheme` with `://`, legacy `script` only.
    case v1 = 1
    /// `storeIdentifier` optional, `displayName`, browsers.
    case v2 = 2
    /// Adds `script2` (JavaScriptCore) beside legacy `script`.
    case v3 = 3
    /// Short keys (`name`, `storeId`, `appId`, `headers`, `redirects`), `scheme` without `://`.
    case v4 = 4
    /// `storeId` as a number.
    case v5 = 5

    /// Older versions sort first.
    public static func < (lhs: ManifestVersion, rhs: ManifestVersion) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `v1` … `v5`.
    public var description: String { "v\(rawValue)" }

    /// Whether this version uses the long v1–v3 key names.
    public var usesLegacyKeys: Bool { self < .v4 }
}

/// An app that links can be opened in.
public struct App: Sendable, Equatable {
    /// The identifier other entries refer to (`appId`).
    public var identifier: String
    /// The user-facing name.
    public var name: String
    /// The URL scheme that opens the app, without `:` or `://` (`twitter`).
    public var scheme: String
    /// The App Store identifier.
    public var storeId: Int?
    /// The Mac App Store identifier.
    public var macStoreId: Int?
    /// An icon URL (first-party apps without a store id).
    public var iconURL: String?
    /// Shown in Opener's "New Apps" group.
    public var isNew: Bool
    /// Limits the app to phones or tablets; `nil` means both.
    public var platform: Platform?
    /// A country code where the app is available, when not global.
    public var country: String?
    /// What the app is called in domains' claims files (`claims`): its App Store app IDs and Android packages, so that
    /// a link a domain claims for one of them opens as this app.
    public var claims: AppClaimNames? = nil
    /// Keys Switchyard does not use (`docs`, `note`, …), kept for tools.
    public var extras: [JSONMember]
    /// Where the app was defined (`/apps/3`, `/actions/2/formats/0/app`).
    public var pointer: JSONPointer

    /// Creates an app.
    public init(
        identifier: String,
        name: String,
        scheme: String,
        storeId: Int? = nil,
        macStoreId: Int? = nil,
        iconURL: String? = nil,
        isNew: Bool = false,
        platform: Platform? = nil,
        country: String? = nil,
        extras: [JSONMember] = [],
        pointer: JSONPointer = .root
    ) {
        self.identifier = identifier
        self.name = name
        self.scheme = scheme
        self.storeId = storeId
        self.macStoreId = macStoreId
        self.iconURL = iconURL
        self.isNew = isNew
        self.platform = platform
        self.country = country
        self.extras = extras
        self.pointer = pointer
    }
}

/// What an app is called in domains' claims files: `"claims": {"appIDs": ["ABCDE12345.com.example.app"],
/// "androidPackages": ["com.example.android"]}` (an optional key of an app, Switchyard's own, kept by `migrate` and
/// `minify`).
public struct AppClaimNames: Sendable, Equatable {
    /// App Store app IDs (`TEAMID.bundle.id`), as apple-app-site-association files name apps.
    public var appIDs: [String]
    /// Android package names, as assetlinks.json files name apps.
    public var androidPackages: [String]

    /// Creates the names.
    public init(appIDs: [String] = [], androidPackages: [String] = []) {
        self.appIDs = appIDs
        self.androidPackages = androidPackages
    }

    /// The keys of the object.
    public static let keys: Set<String> = ["appIDs", "androidPackages"]
}

/// The device family an app is limited to.
public enum Platform: String, Sendable, Hashable, Codable, CaseIterable {
    case phone
    case pad
}

/// How a format, browser or preview produces its URL.
public enum Output: Sendable, Equatable {
    /// A regex replacement template (`$1`, `$0`, `\$`), ICU semantics.
    case template(String)
    /// JavaScript defining `process(url, completionHandler)`; `legacy` marks the v1–v3 web-view `script` field.
    case script(String, legacy: Bool)

    /// Whether a script must run to get the URL.
    public var needsScript: Bool {
        if case .script = self { return true }
        return false
    }
}

/// The output fields of a format, browser or preview exactly as written (for tools that write them back).
public struct OutputFields: Sendable, Equatable {
    /// The `format` template.
    public var template: String?
    /// The `script2` source (JavaScriptCore).
    public var script2: String?
    /// The legacy `script` source (web view), v1–v3.
    public var script: String?

    /// Creates the fields.
    public init(template: String? = nil, script2: String? = nil, script: String? = nil) {
        self.template = template
        self.script2 = script2
        self.script = script
    }

    /// What the engine runs: the template; else `script2` (as newer Opener clients do); else legacy `script`.
    public var output: Output? {
        if let template { return .template(template) }
        if let script2 { return .script(script2, legacy: false) }
        if let script { return .script(script, legacy: true) }
        return nil
    }
}
