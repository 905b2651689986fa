import LinkMatching
import LinkRules

extension AppCatalog {
    /// App types derived from an Opener manifest: the apps sharing an action form a type (keyed by the action's
    /// JSON pointer, named by its title), so the manifest's 265 apps can be chosen between, with defaults, like
    /// Choosy's types. Actions with the same set of apps give one type. Their URLs depend on the link, so they
    /// come from a resolution (``AppPicker/model(for:appType:)``); an app's bare scheme is the fallback.
    public init(openerManifest manifest: Manifest) {
        var types: [AppType] = []
        var seen: Set<[String]> = []
        let appsById = Dictionary(manifest.apps.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        for action in manifest.actions {
            var apps: [CatalogApp] = []
            for format in action.formats {
                guard let app = format.inlineApp ?? appsById[format.appId],
                    !apps.contains(where: { $0.key == app.identifier })
                else { continue }
                apps.append(
                    CatalogApp(
                        key: app.identifier,
                        name: app.name,
                        urlScheme: app.scheme + ":",
                        actions: [.init(key: "open", urlFormat: nil)]
                    )
                )
            }
            let signature = apps.map(\.key)
            guard apps.count >= 2, seen.insert(signature).inserted else { continue }
            types.append(
                AppType(
                    key: action.pointer.description,
                    name: action.title,
                    parameters: [.init(key: "url", name: "Link")],
                    actions: [.init(key: "open", name: action.title)],
                    apps: apps
                )
            )
        }
        self.init(types: types)
    }
}

extension AppPicker {
    /// The picker for a resolved link: the openings of the derived type (see ``AppCatalog/init(openerManifest:)``)
    /// whose apps are installed, with their native URLs, in manifest order, the default marked.
    public func model(for resolution: Resolution, appType: String) throws(ChooserError) -> PickerModel {
        var model = try self.model(appType: appType, action: "open", parameters: ["url": resolution.unwrapped])
        let urls = Dictionary(
            resolution.openings.compactMap { opening in
                opening.app.flatMap { app in opening.url.map { (app.identifier, $0) } }
            },
            uniquingKeysWith: { first, _ in first }
        )
        model.choices = model.choices.compactMap { choice in
            guard let url = urls[choice.app] else { return nil }
            var rendered = choice
            rendered.url = url
            return rendered
        }
        return model
    }
}
