/// Tells whether an app is installed, by its URL scheme. On iOS wrap `UIApplication.canOpenURL`; elsewhere pass
/// the list the caller knows (``InstalledSchemes``).
public protocol AppInstallationChecking: Sendable {
    /// Whether an app with this scheme (lower case, no `:`) can be opened.
    func canOpen(scheme: String) -> Bool
}

/// A fixed list of installed schemes; `nil` means every app counts as installed.
public struct InstalledSchemes: AppInstallationChecking {
    public let schemes: Set<String>?

    public init(_ schemes: Set<String>?) {
        self.schemes = schemes.map { Set($0.map { $0.lowercased() }) }
    }

    public func canOpen(scheme: String) -> Bool {
        schemes?.contains(scheme.lowercased()) ?? true
    }
}
