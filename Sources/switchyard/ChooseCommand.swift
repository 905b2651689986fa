import AppChooser
import ArgumentParser
import Foundation
import LinkRules

/// `switchyard choose`: which installed apps can perform an app-agnostic action, their URLs, and the default.
struct ChooseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "choose",
        abstract:
            "List the installed apps that can perform an action (Choosy's model), with each app's URL and the default.",
        discussion: """
            Types and apps come from the bundled catalog (browser, email, maps, twitter), with --catalog's Choosy data \
            folder and then --refresh-from's download of the type merged over it. --set-default and --reset work \
            alone or with --action. Defaults are kept in --choices, by default \
            $XDG_DATA_HOME/switchyard/choices.sqlite (else ~/.local/share/switchyard/choices.sqlite).

            Site choices ("always open this site with that app") go in the same store, without --type: \
            --remember-site HOST --app ID [--include-subdomains], --forget-site HOST, --forget-all-sites, --sites. \
            resolve and explain mark the remembered app's openings preferred.
            """
    )

    @Option(help: "The app type (twitter, browser, email, maps, …); required unless managing site choices.")
    var type: String?
    @Option(help: "The action (show_profile, browse, compose, …).") var action: String?
    @Option(name: .customLong("param"), help: ArgumentHelp("A parameter (repeatable).", valueName: "key=value"))
    var parameters: [String] = []
    @Option(
        help: ArgumentHelp(
            "The installed apps' schemes or keys, comma-separated (default: every app counts as installed).",
            valueName: "list"
        )
    ) var installed: String?
    @Option(
        help: ArgumentHelp(
            "A Choosy data folder (systemAppTypes.json, app-data/*.json) merged over the bundled catalog.",
            valueName: "dir"
        ),
        completion: .directory
    ) var catalog: String?
    @Option(
        name: .customLong("choices"),
        help: ArgumentHelp(
            "The SQLite file that remembers default apps and site choices, as resolve, explain and serve read it.",
            valueName: "file"
        ),
        completion: .file(extensions: ["sqlite"])
    ) var choices: String?
    /// The name `--choices` had before every command called it so; still read, with a warning.
    @Option(name: .customLong("store"), help: .hidden, completion: .file(extensions: ["sqlite"]))
    var deprecatedStore: String?
    @Option(help: ArgumentHelp("Remember this app as the default for the type.", valueName: "app")) var setDefault:
        String?
    @Flag(help: "Forget the default for the type (the picker shows again).") var reset = false
    @Option(
        help: ArgumentHelp(
            "Download the type's data from this server (<url>/<type>.json, Choosy's layout) over the catalog; kept for a day in the cache, and the last good copy is used when a download fails.",
            valueName: "url"
        )
    ) var refreshFrom: String?
    @Flag(
        help:
            "List the type's actions with the parameters each fills, its parameters and its apps (without --type: every type's), as /v1/app-types does."
    ) var listActions = false
    @Flag(help: "Print one JSON object.") var json = false

    @OptionGroup(title: "Site choices (without --type)")
    var siteOptions: SiteChoiceOptions

    @OptionGroup(title: "Network (used by --refresh-from)")
    var network: NetworkOptions

    func validate() throws {
        if choices != nil && deprecatedStore != nil {
            throw ValidationError("--store is the old name of --choices: give --choices alone")
        }
        let typeOptions =
            type != nil || action != nil || setDefault != nil || reset || !parameters.isEmpty || listActions
        if listActions && (action != nil || setDefault != nil || reset || !parameters.isEmpty) {
            throw ValidationError("--list-actions takes --type alone (no --action, --param, --set-default or --reset)")
        }
        guard siteOptions.isEmpty else {
            if typeOptions {
                throw ValidationError(
                    "site choices (--remember-site, --forget-site, --forget-all-sites, --sites) take no --type, --action, --param, --set-default or --reset"
                )
            }
            return
        }
        guard type != nil || listActions else {
            throw ValidationError(
                "--type is required (or manage site choices with --remember-site, --forget-site, --forget-all-sites or --sites)"
            )
        }
    }

    func run() async throws {
        if deprecatedStore != nil {
            CommandOutput.current.printError(
                "warning: choose --store is deprecated: use --choices FILE, the name resolve, explain and serve use"
            )
        }
        let store = StoreLocation(given: choices ?? deprecatedStore)
        try Self.requireStoreFileIfPresent(store.path)
        if listActions { return try await list() }
        guard let type else { return try await siteOptions.run(store: store, json: json, network: network) }
        var values: [String: String] = [:]
        for text in parameters {
            let (key, value) = try ParameterArgument.split(text, form: "key=value")
            values[key] = value
        }
        let merged = try await loadCatalog(type: type)
        // --installed takes app keys as well as schemes.
        let installation = merged.installation(installed.map(InstalledApps.init(list:)))
        let model: PickerModel?
        do {
            let picker = AppPicker(
                catalog: merged,
                installed: installation,
                store: try store.open()
            )
            let output = CommandOutput.current
            let typeName = merged.type(type)?.name ?? type
            if reset {
                try picker.reset(appType: type)
                if !json { output.print("\(typeName) has no default app now: the picker shows") }
            }
            if let setDefault {
                try picker.setDefault(appType: type, app: setDefault)
                let app = merged.type(type)?.app(setDefault)
                if !json, let app { output.print("the default \(typeName) app is now \(app.name) (\(app.key))") }
            }
            model = try action.map { try picker.model(appType: type, action: $0, parameters: values) }
        } catch let error as ChooserError {
            throw CommandFailure(error, hint: hint(for: error, type: type))
        }
        guard let model else {
            if reset || setDefault != nil { return }
            throw CommandFailure(message: "error: --action is required (or use --set-default / --reset)")
        }
        let output = CommandOutput.current
        if json {
            try output.printJSON(model)
            return
        }
        output.print("\(model.appType) / \(model.action): \(model.reason)")
        for choice in model.choices {
            output.print(
                "\(choice.isDefault ? "*" : " ") \(choice.name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(choice.url)"
            )
        }
        if model.choices.isEmpty { output.print("No installed app of this type.") }
    }

    /// `--list-actions`: the type's (or every type's) actions, parameters and apps, as `/v1/app-types` lists them.
    private func list() async throws(CommandFailure) {
        let merged = try await loadCatalog(type: type)
        let list: AppTypeList
        do throws(ChooserError) {
            if let type {
                list = AppTypeList(types: [try merged.requireType(type)])
            } else {
                list = AppTypeList(merged)
            }
        } catch {
            throw CommandFailure(error, hint: hint(for: error, type: type ?? ""))
        }
        let output = CommandOutput.current
        if json { return try output.printJSON(list) }
        output.print(Self.render(list))
    }

    /// The list for people: per type, its actions with what each needs, its parameters, its apps.
    static func render(_ list: AppTypeList) -> String {
        var lines: [String] = []
        for entry in list.types {
            if !lines.isEmpty { lines.append("") }
            lines.append("\(entry.key) (\(entry.name))")
            lines.append("  actions:")
            let width = entry.actions.map(\.key.count).max() ?? 0
            for action in entry.actions {
                let needs =
                    switch action.parameters.count {
                    case 0: "no parameter"
                    case 1: "--param \(action.parameters[0])=…"
                    default: "one of --param " + action.parameters.map { "\($0)=…" }.joined(separator: ", ")
                    }
                let name = action.name.map { "\($0); " } ?? ""
                lines.append("    \(action.key.padding(toLength: width, withPad: " ", startingAt: 0))  \(name)\(needs)")
            }
            lines.append("  parameters:")
            let parameterWidth = entry.parameters.map(\.key.count).max() ?? 0
            for parameter in entry.parameters {
                let about = [parameter.name, parameter.description].compactMap { $0 }.joined(separator: ": ")
                lines.append(
                    "    \(parameter.key.padding(toLength: parameterWidth, withPad: " ", startingAt: 0))  \(about)"
                )
            }
            lines.append("  apps: " + entry.apps.map { "\($0.key) (\($0.name), \($0.scheme))" }.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }

    /// The bundled catalog, with `--catalog`'s folder merged over it, then `--refresh-from`'s download of the type.
    private func loadCatalog(type: String?) async throws(CommandFailure) -> AppCatalog {
        if let catalog {
            do {
                try UserFile.requireDirectory(catalog)
            } catch {
                throw CommandFailure(error, what: "catalog folder")
            }
        }
        var merged: AppCatalog
        do throws(ChooserError) {
            merged = try AppCatalog.bundled()
            if let catalog { merged = merged.merging(try AppCatalog.load(directory: URL(fileURLWithPath: catalog))) }
        } catch {
            throw CommandFailure(error)
        }
        guard let refreshFrom else { return merged }
        guard let fetcher = try network.fetcher(onlineByDefault: true) else {
            throw CommandFailure(message: "error: --refresh-from downloads app types, which --offline forbids")
        }
        let refresher = CatalogRefresher(baseURL: refreshFrom, stack: fetcher, cacheDirectory: Self.catalogCache)
        let refreshed = await refresher.refresh(merged, types: type.map { [$0] } ?? merged.types.map(\.key))
        let output = CommandOutput.current
        for warning in refreshed.warnings { output.printError("warning: \(warning)") }
        return refreshed.catalog
    }

    /// What to pass when the catalog lacks the type or app asked for.
    private func hint(for error: ChooserError, type: String) -> String {
        if error.code == .missingParameter {
            return "; pass --param KEY=VALUE (--list-actions lists what each action needs)"
        }
        guard error.code == .unknownApp || error.code == .unknownType else { return "" }
        var source = "the bundled one"
        if let catalog { source += " with \(catalog) over it" }
        if let refreshFrom { source += ", then \(refreshFrom)'s \(type).json" }
        return
            "; the catalog is \(source): add a Choosy data folder with --catalog DIR, or download the type with --refresh-from URL"
    }

    /// SQLite creates a missing file; anything else there that is not a file is said in the tool's words.
    static func requireStoreFileIfPresent(_ path: String) throws(CommandFailure) {
        guard FileManager.default.fileExists(atPath: path) else { return }
        do {
            try UserFile.requireFile(path)
        } catch {
            throw CommandFailure(error, what: "choices store")
        }
    }

    /// Where `--refresh-from` keeps its downloads: `$XDG_CACHE_HOME/switchyard/catalog`, else `~/.cache/…`.
    static var catalogCache: URL {
        UserDirectories.current.cache.appendingPathComponent("switchyard/catalog")
    }

    /// `$XDG_DATA_HOME/switchyard/choices.sqlite`, else `~/.local/share/switchyard/choices.sqlite`.
    static var defaultStorePath: String {
        UserDirectories.current.data.appendingPathComponent("switchyard/choices.sqlite").path
    }

    /// Where the choices store is: the path given, whose folder must exist, or the default, whose folder is made.
    struct StoreLocation {
        /// The file's path.
        var path: String
        /// Whether it is the default location (its folders are created with the file).
        var isDefault: Bool

        init(given: String?) {
            path = given ?? ChooseCommand.defaultStorePath
            isDefault = given == nil
        }

        /// The store, created when missing.
        func open() throws(ChooserError) -> ChoicesStore {
            try ChoicesStore(path: path, createsFolders: isDefault)
        }
    }
}
