import ArgumentParser
import Foundation
import LinkMatching
import LinkResolver
import LinkRules

/// `--user-layer PATH` and `--no-user-layer`: the user's own layer over the rules (Docs/UserLayer.md), by default
/// `$XDG_CONFIG_HOME/switchyard/user-layer.json` (or `~/.config/switchyard/user-layer.json`) when that file exists;
/// and `--source-app BUNDLE_ID`, the app the link came from, which the layer's `when` entries match.
struct UserLayerOptions: ParsableArguments {
    @Option(
        name: .customLong("source-app"),
        help: ArgumentHelp(
            "The app the link came from (a bundle identifier such as com.tinyspeck.chatlyio), for the user layer's \"when\" entries.",
            valueName: "bundle-id"
        )
    )
    var sourceApp: String?

    @Option(
        name: .customLong("user-layer"),
        help: ArgumentHelp(
            "Your own layer over the rules: disable entries, leave sites alone, prefer or hide apps, add actions and redirect rules (default: $XDG_CONFIG_HOME/switchyard/user-layer.json when it exists).",
            valueName: "path"
        ),
        completion: .file(extensions: ["json"])
    )
    var userLayer: String?

    @Flag(name: .customLong("no-user-layer"), help: "Ignore the default user layer file.")
    var noUserLayer = false

    /// The default layer file: `user-layer.json` in the `switchyard` folder of the user's configuration.
    static var defaultPath: String {
        UserDirectories.current.config.appendingPathComponent("switchyard/user-layer.json").path
    }

    /// The layer to apply: the one given, else the default file when it exists and was not turned off.
    var path: String? {
        if let userLayer { return userLayer }
        guard !noUserLayer else { return nil }
        let candidate = Self.defaultPath
        return FileManager.default.fileExists(atPath: candidate) ? candidate : nil
    }

    func validate() throws {
        if userLayer != nil && noUserLayer {
            throw ValidationError("--user-layer and --no-user-layer cannot be used together")
        }
    }

    /// `rules` with the layer over them (unchanged without one); its warnings go to stderr, and a layer with errors
    /// stops the command with status 2 after printing each located error.
    func apply(over rules: RuleSet) throws(CommandFailure) -> RuleSet {
        guard let path else { return rules }
        return try Self.apply(path, over: rules)
    }

    /// Applies the layer file at `path` over `rules` through the shared loader (what `lint` and `test` use too).
    static func apply(_ path: String, over rules: RuleSet) throws(CommandFailure) -> RuleSet {
        let output = CommandOutput.current
        do {
            let layered = try RuleSetLoader(policy: .tool(lenient: false)).apply(userLayer: path, over: rules)
            for diagnostic in layered.userLayer?.diagnostics ?? [] { output.printError(diagnostic.description) }
            return layered
        } catch {
            for diagnostic in error.diagnostics { output.printError(diagnostic.description) }
            throw CommandFailure(message: error.description)
        }
    }
}
