import ArgumentParser
import Foundation
import LinkFetching
import LinkMatching
import LinkResolver
import LinkRules

/// `--manifest PATH`: the rule set to use instead of the bundled one.
struct ManifestOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("An Opener-format manifest (v1–v5) to use instead of the bundled rules: a file, or an http(s) URL (downloaded through the network policy and cached).", valueName: "path|url"))
    var manifest: String?

    @Flag(help: "Use a manifest even when some entries have errors (they are skipped and reported).")
    var lenient = false

    /// Loads the chosen rule set; a file that cannot be loaded is a one-line error (exit 2) naming the place.
    func loadRules() throws -> RuleSet {
        guard let manifest else {
            do {
                return try Self.checked(RuleSet.bundled(), lenient: lenient)
            } catch let error as ManifestError {
                throw CommandFailure(message: error.description)
            }
        }
        return try Self.load(path: manifest, lenient: lenient)
    }

    /// Like ``loadRules()``, and also accepts an http(s) URL: downloaded through the network layer, cached on disk
    /// (conditional requests, a 24-hour lifetime) with the last good copy kept when a download is corrupt or fails.
    func loadRules(network: NetworkOptions) async throws -> RuleSet {
        guard let manifest, manifest.hasPrefix("https://") || manifest.hasPrefix("http://") else { return try loadRules() }
        guard let fetcher = network.fetcher(onlineByDefault: true) else {
            throw CommandFailure(message: "\(manifest): error: downloading a manifest needs the network, but --offline was given")
        }
        let downloader = CachedDownloader(fetcher: fetcher, directory: NetworkOptions.cacheDirectory)
        let download: CachedDownload
        do {
            download = try await downloader.load(url: manifest) { data in
                _ = try ManifestLoader().load(Array(data), file: manifest)
            }
        } catch {
            throw CommandFailure(message: "\(manifest): error: \(error.description)")
        }
        if let warning = download.warning { Terminal.printError("\(manifest): warning: \(warning)") }
        do {
            return try Self.checked(RuleSet(ManifestLoader().load(Array(download.data), file: manifest)), lenient: lenient)
        } catch let error as ManifestError {
            throw CommandFailure(message: error.description)
        }
    }

    static func load(path: String, lenient: Bool) throws -> RuleSet {
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw CommandFailure(message: "\(path): error: no readable file at this path")
        }
        do {
            return try checked(RuleSet.load(contentsOf: url), lenient: lenient)
        } catch let error as ManifestError {
            throw CommandFailure(message: error.description)
        }
    }

    /// Prints the manifest's errors on stderr (`file:line:column: error: …`); unless lenient, errors stop the
    /// command with status 2, because a rule set with broken entries would silently open fewer links.
    static func checked(_ rules: RuleSet, lenient: Bool) throws -> RuleSet {
        let errors = rules.errors
        guard !errors.isEmpty else { return rules }
        for error in errors { Terminal.printError(error.description) }
        if lenient { return rules }
        throw CommandFailure(message: "\(rules.file ?? "manifest"): \(errors.count) error(s); fix them, or pass --lenient to use the rest of the rules")
    }
}

/// Prints a value as JSON on standard output.
enum JSONOutput {
    static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func print(_ value: some Encodable, pretty: Bool = true) throws {
        let data = try encoder(pretty: pretty).encode(value)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}
