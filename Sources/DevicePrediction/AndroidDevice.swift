import DomainClaims
import WebLinks

/// An Android 12 (API 31) or later device: its apps, with their intent filters and the user's and the system's
/// decisions about each one's domains.
public struct AndroidDevice: Sendable, Equatable {
    /// The first API level whose resolver this models (Android 12).
    public static let minimumSDK = 31
    /// The first API level with Dynamic App Links (Android 15).
    public static let dynamicAppLinksSDK = 35

    /// The device's API level (`sdk`), when given; nil is "Android 12 or later".
    public var sdk: Int?
    /// The installed apps, in the file's order.
    public var apps: [AndroidApp]
    /// The default browser's package (`defaultBrowser`), when one is set: a link no app is approved for goes straight
    /// to it.
    public var defaultBrowser: String?

    /// A device with these apps.
    public init(sdk: Int? = nil, apps: [AndroidApp], defaultBrowser: String? = nil) {
        self.sdk = sdk
        self.apps = apps
        self.defaultBrowser = defaultBrowser
    }
}

/// One installed Android app.
public struct AndroidApp: Sendable, Equatable {
    /// The package name.
    public var package: String
    /// Whether the app is a browser (`isBrowser`): offered for any web link no app is approved for.
    public var isBrowser: Bool
    /// Whether the package is enabled (`enabled`); a disabled app is no candidate.
    public var enabled: Bool
    /// Whether its activity is enabled (`componentEnabled`); a disabled activity is no candidate.
    public var componentEnabled: Bool
    /// The app's "Open supported links" switch (`linkHandlingAllowed`): off, none of its domains is approved.
    public var linkHandlingAllowed: Bool
    /// When the app was first installed, as an order (`firstInstallOrder`, else `firstInstallTime` in milliseconds):
    /// higher is more recent.
    public var firstInstallOrder: Int
    /// The app's intent filters.
    public var filters: [IntentFilter]
    /// The hosts verified for the app (`verified`); nil when not given: then derived from the domains' assetlinks.json
    /// and ``fingerprints``.
    public var verified: [String]?
    /// The hosts the user added in the app's "Open by default" settings (`userSelected`).
    public var userSelected: [String]
    /// The SHA-256 fingerprints of the app's signing certificates (`fingerprints`), for deriving verification.
    public var fingerprints: [CertificateFingerprint]
    /// The API level the app targets (`targetSdk`), when given: below 31, an app with one `autoVerify` filter has all
    /// its web hosts verified, as Android collects them for such apps.
    public var targetSDK: Int?
    /// Where the app is in the device file.
    public var pointer: JSONPointer

    /// An app; every flag on, as a device file's missing booleans are.
    public init(
        package: String,
        isBrowser: Bool = false,
        enabled: Bool = true,
        componentEnabled: Bool = true,
        linkHandlingAllowed: Bool = true,
        firstInstallOrder: Int = 0,
        filters: [IntentFilter] = [],
        verified: [String]? = nil,
        userSelected: [String] = [],
        fingerprints: [CertificateFingerprint] = [],
        targetSDK: Int? = nil,
        pointer: JSONPointer = .root
    ) {
        self.package = package
        self.isBrowser = isBrowser
        self.enabled = enabled
        self.componentEnabled = componentEnabled
        self.linkHandlingAllowed = linkHandlingAllowed
        self.firstInstallOrder = firstInstallOrder
        self.filters = filters
        self.verified = verified
        self.userSelected = userSelected
        self.fingerprints = fingerprints
        self.targetSDK = targetSDK
        self.pointer = pointer
    }
}

/// One `<intent-filter>` of an app's activity.
public struct IntentFilter: Sendable, Equatable {
    /// The actions (`VIEW` or `android.intent.action.VIEW`, …).
    public var actions: [String]
    /// The categories (`BROWSABLE`, `DEFAULT`, or their full names).
    public var categories: [String]
    /// The `<data android:scheme>` values.
    public var schemes: [String]
    /// The `<data android:host>` values; none matches every host.
    public var hosts: [String]
    /// The `<data>` paths; none matches every path.
    public var paths: [FilterPath]
    /// `android:autoVerify`.
    public var autoVerify: Bool
    /// Where the filter is in the device file.
    public var pointer: JSONPointer

    /// A filter.
    public init(
        actions: [String] = [],
        categories: [String] = [],
        schemes: [String] = [],
        hosts: [String] = [],
        paths: [FilterPath] = [],
        autoVerify: Bool = false,
        pointer: JSONPointer = .root
    ) {
        self.actions = actions
        self.categories = categories
        self.schemes = schemes
        self.hosts = hosts
        self.paths = paths
        self.autoVerify = autoVerify
        self.pointer = pointer
    }

    /// Whether the filter takes a tapped web link's intent at all: the action `VIEW`, both categories `BROWSABLE` and
    /// `DEFAULT` (the intent's, and the one resolution for a tap asks for).
    public var takesViewIntents: Bool {
        actions.contains { Self.named($0, "android.intent.action.", "VIEW") }
            && categories.contains { Self.named($0, "android.intent.category.", "BROWSABLE") }
            && categories.contains { Self.named($0, "android.intent.category.", "DEFAULT") }
    }

    /// Whether the filter declares a web scheme (`http` or `https`: either counts for both).
    public var hasWebScheme: Bool {
        schemes.contains { $0.lowercased() == "http" || $0.lowercased() == "https" }
    }

    /// Whether the filter takes a tapped link with `scheme`, `host` and decoded `path` (``mismatch(scheme:host:path:)``
    /// is nil).
    public func takes(scheme: String, host: String?, path: String) -> Bool {
        mismatch(scheme: scheme, host: host, path: path) == nil
    }

    /// Why the filter does not take a tapped link with `scheme`, `host` and decoded `path`, in a few words, or nil when
    /// it does: ``takesViewIntents``, then the data as `IntentFilter.matchData` checks them: the scheme among its
    /// schemes (http and https count for each other); then, when it names hosts, the host among them; then, when it
    /// names hosts and paths, the path among the paths.
    public func mismatch(scheme: String, host: String?, path: String) -> String? {
        if !actions.contains(where: { Self.named($0, "android.intent.action.", "VIEW") }) {
            return "it lacks the action VIEW"
        }
        for category in ["BROWSABLE", "DEFAULT"]
        where !categories.contains(where: { Self.named($0, "android.intent.category.", category) }) {
            return "it lacks the category \(category)"
        }
        let scheme = scheme.lowercased()
        let web = scheme == "http" || scheme == "https"
        guard web ? hasWebScheme : schemes.contains(where: { $0.lowercased() == scheme }) else {
            return "it names no \(web ? "http or https" : scheme) scheme"
        }
        guard !hosts.isEmpty else { return nil }
        guard let host, hosts.contains(where: { HostName.filter($0, matches: host) }) else {
            return "none of its hosts (\(hosts.joined(separator: ", "))) matches \(host ?? "a link without a host")"
        }
        guard paths.isEmpty || paths.contains(where: { $0.matches(path) }) else {
            return
                "none of its paths (\(paths.map { "\($0.kind.rawValue) \($0.text)" }.joined(separator: ", "))) matches \(path)"
        }
        return nil
    }

    private static func named(_ text: String, _ prefix: String, _ name: String) -> Bool {
        text == name || text == prefix + name
    }
}
