import ArgumentParser
import Foundation
import LinkFetching
import LinkMatching
import LinkResolver
import LinkRules

/// `--manifest PATH|URL` and `--lenient`: the rule set to use instead of the bundled one.
struct ManifestOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "An Opener-format manifest (v1–v5) to use instead of the bundled rules: a file, or an http(s) URL (downloaded through the network policy and cached).",
            valueName: "path|url"
        ),
        completion: .file(extensions: ["json"])
    )
    var manifest: String?

    @Flag(help: "Use a manifest even when some entries have errors (they are skipped and reported).")
    var lenient = false

    /// Where the rules come from.
    var source: ManifestSource { ManifestSource(argument: manifest) }

    /// Loads the rules through the shared loader (a URL through `network`'s fetcher and the download cache); a
    /// manifest that cannot be used prints its located errors on stderr and stops the command with status 2.
    func loadRules(network: NetworkOptions?) async throws(CommandFailure) -> RuleSet {
        try await Self.load(source, lenient: lenient, network: network)
    }

    /// Loads `source` under the tool's acceptance policy (the `test` command's positional manifest comes through
    /// here too); `network` nil refuses manifest URLs.
    static func load(
        _ source: ManifestSource,
        lenient: Bool,
        network: NetworkOptions?
    ) async throws(CommandFailure) -> RuleSet {
        let downloader = try network?.fetcher(onlineByDefault: true).map {
            CachedDownloader(stack: $0, directory: NetworkOptions.cacheDirectory)
        }
        let loader = RuleSetLoader(policy: .tool(lenient: lenient), downloader: downloader)
        do {
            let loaded = try await loader.load(source)
            // Entries left out under --lenient are still worth seeing.
            let output = CommandOutput.current
            for diagnostic in loaded.skippedEntries { output.printError(diagnostic.description) }
            if let warning = loaded.downloadWarning { output.printError("\(source): warning: \(warning)") }
            return loaded.rules
        } catch {
            for diagnostic in error.diagnostics { CommandOutput.current.printError(diagnostic.description) }
            let hint = error.diagnostics.isEmpty ? "" : " (--lenient uses the rest of the rules)"
            throw CommandFailure(message: error.description + hint)
        }
    }
}
