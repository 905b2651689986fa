import Foundation

/// The picker for one action context: the installed apps of the type that can perform it, in catalog order, each
/// with its URL, the default marked, and whether the picker must be shown (Choosy's rules).
public struct AppPicker: Sendable {
    /// The app types and their apps.
    public let catalog: AppCatalog
    /// Which apps are installed; the others are never offered.
    public let installed: any AppInstallationChecking
    /// Where defaults are remembered (nil: none is, so the picker always shows).
    public let store: ChoicesStore?

    /// Creates a picker over `catalog`, offering the apps `installed` accepts, with defaults kept in `store`.
    public init(catalog: AppCatalog, installed: any AppInstallationChecking, store: ChoicesStore?) {
        self.catalog = catalog
        self.installed = installed
        self.store = store
    }

    /// What to show or open for `action` of `appType` with `parameters`.
    public func model(appType: String, action: String, parameters: [String: String]) throws(ChooserError) -> PickerModel
    {
        let type = try requireType(appType)
        guard
            type.actions.contains(where: { $0.key == action })
                || type.apps.contains(where: { $0.actions.contains { $0.key == action } })
        else {
            let actions = type.actions.map(\.key)
            throw ChooserError(
                .unknownAction,
                "app type \"\(type.key)\" has no action \"\(action.prefix(100))\"\(AppCatalog.suggestion(for: action, among: actions)) (it has \(actions.joined(separator: ", ")))"
            )
        }
        try type.checkParameters(parameters, for: action)
        let apps = type.apps.filter { installed.canOpen(scheme: $0.scheme) }
        let stored = try store?.choice(for: type.key)
        let installedKeys = Set(apps.map(\.key))
        var defaultApp = stored.flatMap { choice in installedKeys.contains(choice.app) ? choice.app : nil }
        let reason: String
        if stored == nil {
            reason = "no default app chosen for \(type.name)"
        } else if defaultApp == nil {
            reason = "the default app is no longer installed"
        } else if let stored, !installedKeys.subtracting(stored.knownApps).isEmpty {
            reason = "a new \(type.name) app was installed since the default was chosen"
            defaultApp = stored.app
        } else {
            reason = "open the default app"
        }
        let showPicker = reason != "open the default app"
        let choices = apps.map { app in
            PickerModel.Choice(
                app: app.key,
                name: app.name,
                url: app.url(for: action, parameters: parameters),
                isDefault: app.key == defaultApp
            )
        }
        return PickerModel(
            appType: type.key,
            action: action,
            choices: choices,
            defaultApp: defaultApp,
            showPicker: showPicker,
            reason: reason
        )
    }

    /// Remembers the user's pick.
    public func setDefault(appType: String, app: String) throws(ChooserError) {
        let type = try requireType(appType)
        guard type.app(app) != nil else {
            throw ChooserError(
                .unknownApp,
                "app type \"\(type.key)\" has no app \"\(app.prefix(100))\"\(AppCatalog.suggestion(for: app, among: type.apps.map(\.key))) (it has \(type.apps.map(\.key).joined(separator: ", ")))"
            )
        }
        let installedKeys = Set(type.apps.filter { installed.canOpen(scheme: $0.scheme) }.map(\.key))
        try store?.setDefault(appType: type.key, app: app, installedApps: installedKeys)
    }

    /// Forgets the default (the picker shows next time).
    public func reset(appType: String) throws(ChooserError) {
        try store?.reset(appType: try requireType(appType).key)
    }

    /// The catalog's type with this key, or ``ChooserError/Code/unknownType`` listing the keys it has.
    func requireType(_ key: String) throws(ChooserError) -> AppType {
        try catalog.requireType(key)
    }
}

/// The picker's content.
public struct PickerModel: Sendable, Equatable, Codable {
    /// One installed app that can perform the action.
    public struct Choice: Sendable, Equatable, Codable {
        /// The app's key.
        public var app: String
        /// The app's name, for people.
        public var name: String
        /// The URL that performs the action in this app.
        public var url: String
        /// Whether this app is the remembered default.
        public var isDefault: Bool
    }

    /// The app type's key, as the catalog spells it.
    public var appType: String
    /// The action's key.
    public var action: String
    /// The installed apps that can perform the action, in catalog order.
    public var choices: [Choice]
    /// The key of the remembered default app, when it is still installed.
    public var defaultApp: String?
    /// Whether to show the choices (else open the default).
    public var showPicker: Bool
    /// Why the picker shows or not, one phrase (`no default app chosen for Twitter`, `open the default app`).
    public var reason: String
}
