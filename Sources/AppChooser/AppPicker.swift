import Foundation

/// The picker for one action context: the installed apps of the type that can perform it, in catalog order, each
/// with its URL, the default marked, and whether the picker must be shown (Choosy's rules).
public struct AppPicker: Sendable {
    public let catalog: AppCatalog
    public let installed: any AppInstallationChecking
    public let store: ChoicesStore?

    public init(catalog: AppCatalog, installed: any AppInstallationChecking, store: ChoicesStore?) {
        self.catalog = catalog
        self.installed = installed
        self.store = store
    }

    /// What to show or open for `action` of `appType` with `parameters`.
    public func model(appType: String, action: String, parameters: [String: String]) throws(ChooserError) -> PickerModel
    {
        guard let type = catalog.type(appType) else {
            throw ChooserError(
                .unknownType,
                "no app type \"\(appType)\" (known: \(catalog.types.map(\.key).joined(separator: ", ")))"
            )
        }
        guard
            type.actions.contains(where: { $0.key == action })
                || type.apps.contains(where: { $0.actions.contains { $0.key == action } })
        else {
            throw ChooserError(.unknownAction, "app type \"\(type.key)\" has no action \"\(action)\"")
        }
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
        guard let type = catalog.type(appType) else { throw ChooserError(.unknownType, "no app type \"\(appType)\"") }
        guard type.app(app) != nil else {
            throw ChooserError(.unknownApp, "app type \"\(type.key)\" has no app \"\(app)\"")
        }
        let installedKeys = Set(type.apps.filter { installed.canOpen(scheme: $0.scheme) }.map(\.key))
        try store?.setDefault(appType: type.key, app: app, installedApps: installedKeys)
    }

    /// Forgets the default (the picker shows next time).
    public func reset(appType: String) throws(ChooserError) {
        try store?.reset(appType: catalog.type(appType)?.key ?? appType)
    }
}

/// The picker's content.
public struct PickerModel: Sendable, Equatable, Codable {
    public struct Choice: Sendable, Equatable, Codable {
        public var app: String
        public var name: String
        public var url: String
        public var isDefault: Bool
    }

    public var appType: String
    public var action: String
    public var choices: [Choice]
    public var defaultApp: String?
    /// Whether to show the choices (else open the default).
    public var showPicker: Bool
    /// Why.
    public var reason: String
}
