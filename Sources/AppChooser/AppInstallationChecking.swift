import LinkRules

/// Tells whether an app is installed, by its URL scheme. On iOS wrap `UIApplication.canOpenURL`; elsewhere pass
/// the list the caller knows (`InstalledApps`, from LinkRules) or ``EveryAppInstalled``.
public protocol AppInstallationChecking: Sendable {
    /// Whether an app with this scheme (lower case, no `:`) can be opened.
    func canOpen(scheme: String) -> Bool
}

/// Every app counts as installed (no list was given).
public struct EveryAppInstalled: AppInstallationChecking {
    /// Creates the check.
    public init() {}

    /// Always true.
    public func canOpen(scheme: String) -> Bool { true }
}

extension InstalledApps: AppInstallationChecking {
    /// Whether the list holds the scheme.
    public func canOpen(scheme: String) -> Bool { contains(scheme: scheme) }
}

extension AppCatalog {
    /// The installation check for a list the user gave (`--installed`, `installed=`), whose entries may be app keys
    /// (Choosy's data knows apps by key) as well as schemes; nil: every app counts as installed.
    public func installation(_ list: InstalledApps?) -> any AppInstallationChecking {
        guard let list else { return EveryAppInstalled() }
        let apps = types.flatMap(\.apps).filter { list.contains(scheme: $0.key) || list.contains(scheme: $0.scheme) }
        return InstalledApps(apps.map(\.scheme))
    }
}
