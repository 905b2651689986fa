import AppChooser
import ArgumentParser
import Foundation
import LinkRules

/// `switchyard choose`: which installed apps can perform an app-agnostic action, their URLs, and the default.
struct ChooseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "choose",
        abstract:
            "List the installed apps that can perform an action (Choosy's model), with each app's URL and the default."
    )

    @Option(help: "The app type (twitter, browser, email, maps, …).") var type: String
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
        help: ArgumentHelp("The SQLite file that remembers default apps.", valueName: "file"),
        completion: .file(extensions: ["sqlite"])
    ) var store: String?
    @Option(help: ArgumentHelp("Remember this app as the default for the type.", valueName: "app")) var setDefault:
        String?
    @Flag(help: "Forget the default for the type (the picker shows again).") var reset = false
    @Flag(help: "Print one JSON object.") var json = false

    func run() async throws {
        var values: [String: String] = [:]
        for text in parameters {
            let (key, value) = try ParameterArgument.split(text, form: "key=value")
            values[key] = value
        }
        let merged = try loadCatalog()
        // --installed takes app keys as well as schemes.
        let installation = merged.installation(installed.map(InstalledApps.init(list:)))
        let model: PickerModel?
        do {
            let picker = AppPicker(
                catalog: merged,
                installed: installation,
                store: try ChoicesStore(path: store ?? Self.defaultStorePath)
            )
            if reset { try picker.reset(appType: type) }
            if let setDefault { try picker.setDefault(appType: type, app: setDefault) }
            model = try action.map { try picker.model(appType: type, action: $0, parameters: values) }
        } catch let error as ChooserError {
            throw CommandFailure(message: "error: \(error.description)")
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

    private func loadCatalog() throws -> AppCatalog {
        do {
            var merged = try AppCatalog.bundled()
            if let catalog { merged = merged.merging(try AppCatalog.load(directory: URL(fileURLWithPath: catalog))) }
            return merged
        } catch {
            throw CommandFailure(message: "error: \(error.description)")
        }
    }

    /// `$XDG_DATA_HOME/switchyard/choices.sqlite`, else `~/.local/share/switchyard/choices.sqlite`.
    static var defaultStorePath: String {
        UserDirectories.current.data.appendingPathComponent("switchyard/choices.sqlite").path
    }
}
