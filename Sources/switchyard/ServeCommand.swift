import AppChooser
import ArgumentParser
import DomainClaimsStage
import Foundation
import LinkCleaning
import LinkFetching
import LinkFetchingHTTP
import LinkResolver
import LinkRules
import LinkServer
import Logging
import NIOCore

/// `switchyard serve`: the HTTP API and the playground page.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the HTTP API (/v1/…) and the playground page over the rules."
    )

    @Option(help: "The interface to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port, 0 to 65535 (0: any free port; the chosen one is logged).")
    var port = 8080

    @Option(
        help: ArgumentHelp(
            "A manifest file or http(s) URL to serve instead of the bundled rules (a file reloads on change, a URL is checked every reload interval; both on SIGHUP).",
            valueName: "path|url"
        ),
        completion: .file(extensions: ["json"])
    )
    var manifest: String?

    @Option(
        name: .customLong("user-layer"),
        help: ArgumentHelp(
            "Your own layer over the rules (Docs/UserLayer.md); reloads on change and stays over manifest updates, and a broken one is refused while the previous one keeps serving.",
            valueName: "path"
        ),
        completion: .file(extensions: ["json"])
    )
    var userLayer: String?

    @Option(help: "Seconds between checks of the manifest file for changes (0.05 to 86400).")
    var reloadInterval: Double = 5

    @Option(help: "How much the server logs on standard error.")
    var logLevel = Logger.Level.info

    @Option(help: "Log lines as text, or as one JSON object each (timestamp, level, label, message, metadata).")
    var logFormat = LogFormat.text

    @Option(
        help: ArgumentHelp(
            "Wall-clock limit of one resolution, scripts and HTTP requests included, in seconds (a request may ask for less with timeout=); also each of the manifest's own tests at /v1/tests.",
            valueName: "seconds"
        )
    )
    var timeout: Double = 5

    @Option(name: .customLong("script-budget"), help: .hidden)
    var scriptBudget: Double?

    @Option(
        help: ArgumentHelp(
            "Seconds a cache in front (or a client) may reuse a reproducible answer without asking again: Cache-Control max-age, with an ETag (0: no-cache, revalidated every time).",
            valueName: "seconds"
        )
    )
    var cacheMaxAge = 60

    @Flag(help: "Never fetch: scripts that need the network report it, short links are not unwrapped.")
    var offline = false

    @Flag(help: "Let fetches reach loopback and private addresses (local testing only).")
    var allowPrivateAddresses = false

    @OptionGroup var connection: ConnectionOptions

    @Flag(
        help:
            "Read each final link's domain claims (apple-app-site-association, assetlinks.json): /v1/resolve lists the claimed apps as universal-link and app-link openings unless a request says claims=false."
    )
    var claims = false

    @OptionGroup var scriptRequests: ScriptRequestLimit

    @OptionGroup var hostLimits: HostLimitOptions

    @OptionGroup(title: "Cleaning (ClearURLs' catalog; a request turns it off with clean=false)")
    var cleaning: CleaningArguments

    @Option(
        help: ArgumentHelp(
            "A SQLite choices store (created when missing): /v1/resolve marks the apps remembered per site, /v1/choices/sites manages them.",
            valueName: "file"
        ),
        completion: .file(extensions: ["sqlite"])
    )
    var choices: String?

    func validate() throws {
        try OptionRange.check(port, in: 0...65535, option: "--port", note: " (0: any free port)")
        _ = try timeLimit()
        try OptionRange.check(
            cacheMaxAge,
            in: 0...31_536_000,
            option: "--cache-max-age",
            unit: "whole seconds",
            note: " (a year)"
        )
        try OptionRange.check(seconds: reloadInterval, in: 0.05...86400, option: "--reload-interval")
    }

    func run() async throws {
        let output = CommandOutput.current
        // The server's own logger, not the process-wide logging system: it writes where the command prints, in the
        // format and at the level asked for, and a second run in the same process (a test) can choose others.
        let logger = Logger(label: "switchyard.server") { [logLevel, logFormat] label in
            logFormat.handler(label: label, level: logLevel, stream: LogStream(output: output))
        }
        var settings = ServerConfiguration(
            host: host,
            port: port,
            manifest: ManifestSource(argument: manifest),
            reloadInterval: .milliseconds(Int(reloadInterval * 1000)),
            timeLimit: try timeLimit(),
            networkEnabled: !offline,
            allowPrivateAddresses: allowPrivateAddresses,
            maximumScriptRequests: scriptRequests.maximum,
            cacheMaxAge: .seconds(cacheMaxAge)
        )
        settings.hostLimits = hostLimits.limits
        settings.upstream = try connection.liveFetcher(
            policy: connection.policy(allowPrivateAddresses: allowPrivateAddresses)
        )
        if claims { settings.openingStages = [DomainClaimsStage()] }
        settings.choices = try choices.map(Self.openChoices)
        settings.userLayer = userLayer
        // One stack for everything the server fetches: the cleaning catalog now, then its manifest and resolutions.
        let metrics = ServerMetrics()
        let stack = settings.makeStack(metrics: metrics)
        if let loaded = try await cleaning.catalog(store: CleanCommand.store(stack: stack)) {
            settings.cleaner = LinkCleaner(catalog: loaded.catalog)
        }
        settings.allowsReferralMarketing = cleaning.allowReferralMarketing
        let configuration = settings
        let server: SwitchyardServer
        do {
            server = try await SwitchyardServer(
                configuration: configuration,
                logger: logger,
                metrics: metrics,
                stack: stack
            )
        } catch {
            for diagnostic in error.diagnostics { output.printError(diagnostic.description) }
            throw CommandFailure(message: error.description)
        }
        do {
            try await server.run { port in
                output.printError("switchyard: listening on http://\(configuration.host):\(port)/")
            }
        } catch {
            guard let reason = Self.listenFailure(error) else { throw error }
            throw CommandFailure(message: "error: cannot listen on \(host):\(port): \(reason)")
        }
    }
}

extension ServeCommand {
    /// `--timeout` (or the old name `--script-budget`, which said "each script" but always bounded the whole
    /// resolution), checked as `resolve --timeout` is.
    func timeLimit() throws -> Duration {
        do {
            return try ResolveRequest.timeLimit(seconds: scriptBudget ?? timeout)
        } catch {
            throw ValidationError(error.message(naming: scriptBudget == nil ? "--timeout" : "--script-budget"))
        }
    }

    /// The `--choices` store, created when missing in a folder that exists; one that cannot be used stops the command
    /// with its reason.
    static func openChoices(_ path: String) throws(CommandFailure) -> ChoicesStore {
        try ChooseCommand.requireStoreFileIfPresent(path)
        do {
            return try ChoicesStore(path: path, createsFolders: false)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// Why the server could not listen, in the tool's words (never NIO's `bind(descriptor:…)` text), or nil for any
    /// other failure.
    static func listenFailure(_ error: any Error) -> String? {
        // NIO throws `SocketAddressError.UnknownHost` (a struct nested in the enum, not a case of it) when the host
        // name does not resolve, as for `--host 0.0.0.0.0`.
        if error is SocketAddressError.UnknownHost { return "the host name does not resolve to an address" }
        if case SocketAddressError.failedToParseIPString = error { return "it is not an IP address or a host name" }
        if error is SocketAddressError { return "the host name does not resolve to an address" }
        guard let error = error as? IOError else { return nil }
        switch error.errnoCode {
        case EADDRINUSE: return "the address is already in use"
        case EADDRNOTAVAIL: return "the address is not one of this machine's"
        case EACCES, EPERM: return "permission denied (ports below 1024 need privileges)"
        default: return "the system refused it (errno \(error.errnoCode))"
        }
    }
}

/// The server's log lines, written to the command's standard error.
private struct LogStream: TextOutputStream, Sendable {
    let output: CommandOutput

    func write(_ string: String) {
        output.writeError(Data(string.utf8))
    }
}
