import ArgumentParser
import Foundation
import LinkResolver
import LinkRules
import LinkServer
import Logging

/// `switchyard serve`: the HTTP API and the playground page.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the HTTP API (/v1/…) and the playground page over the rules."
    )

    @Option(help: "The interface to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port (0: any free port; the chosen one is logged).")
    var port = 8080

    @Option(
        help: ArgumentHelp(
            "A manifest file or http(s) URL to serve instead of the bundled rules (a file reloads on change, a URL is checked every reload interval; both on SIGHUP).",
            valueName: "path|url"
        )
    )
    var manifest: String?

    @Option(help: "Seconds between checks of the manifest file for changes (at least 0.05).")
    var reloadInterval: Double = 5

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"

    @Option(help: "Log lines as text, or as one JSON object each (timestamp, level, label, message, metadata).")
    var logFormat = LogFormat.text

    @Option(help: "Seconds each script of a request may run.")
    var scriptBudget: Double = 5

    @Flag(help: "Never fetch: scripts that need the network report it, short links are not unwrapped.")
    var offline = false

    @Flag(help: "Let fetches reach loopback and private addresses (local testing only).")
    var allowPrivateAddresses = false

    @OptionGroup var scriptRequests: ScriptRequestLimit

    func run() async throws {
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw CommandFailure(
                message: "error: --log-level must be one of trace, debug, info, notice, warning, error, critical"
            )
        }
        LoggingSystem.bootstrap { label in
            var handler = logFormat.handler(label: label)
            handler.logLevel = level
            return handler
        }
        let configuration = ServerConfiguration(
            host: host,
            port: port,
            manifest: ManifestSource(argument: manifest),
            reloadInterval: .milliseconds(Int(min(max(reloadInterval, 0.05), 86400) * 1000)),
            scriptBudget: .milliseconds(Int(min(max(scriptBudget, 0.1), 60) * 1000)),
            networkEnabled: !offline,
            allowPrivateAddresses: allowPrivateAddresses,
            maximumScriptRequests: scriptRequests.maximum
        )
        let server: SwitchyardServer
        do {
            server = try await SwitchyardServer(configuration: configuration)
        } catch {
            for diagnostic in error.diagnostics { CommandOutput.current.printError(diagnostic.description) }
            throw CommandFailure(message: error.description)
        }
        try await server.run { port in
            CommandOutput.current.printError("switchyard: listening on http://\(configuration.host):\(port)/")
        }
    }
}
