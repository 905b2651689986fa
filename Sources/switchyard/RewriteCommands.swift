import ArgumentParser
import Foundation
import LinkMatching
import LinkResolver
import LinkRules
import RuleTooling

/// Loading and checking shared by the commands that rewrite manifests.
enum ManifestRewriting {
    /// Loads a manifest file with its parsed document and its compiled rules. A manifest `resolve` and `lint` refuse
    /// (an entry with an error) is refused here too, with the same located errors, before anything is rewritten.
    static func load(_ path: String) async throws(CommandFailure) -> (document: LoadedManifest, rules: RuleSet) {
        let rules = try await ManifestOptions.load(.file(path), lenient: false, network: nil)
        do {
            return (try ManifestLoader().load(contentsOf: URL(fileURLWithPath: path)), rules)
        } catch {
            throw CommandFailure(message: error.description)
        }
    }

    /// Loads rewritten text; a failure here is a bug in the tool, reported as such.
    static func reload(_ text: String, name: String) throws(CommandFailure) -> RuleSet {
        do {
            return RuleSet(try ManifestLoader().load(text, file: name))
        } catch {
            throw CommandFailure(
                message:
                    "\(name): error: the rewritten manifest does not load (\(error.description)); nothing was written",
                exitCode: 1
            )
        }
    }

    /// Runs the original's test cases on both rule sets (scripts that need the network are skipped on both).
    static func verify(original: RuleSet, rewritten: RuleSet, network: NetworkOptions) async throws -> EquivalenceReport
    {
        let engine = try network.scriptEngine()
        let report = await ManifestEquivalence.check(original: original, rewritten: rewritten, engine: engine)
        guard report.isEquivalent else {
            for difference in report.differences.prefix(20) { CommandOutput.current.printError("  \(difference)") }
            throw CommandFailure(message: "error: \(report.summary); nothing was written", exitCode: 1)
        }
        return report
    }
}

/// `switchyard minify PATH`: a smaller manifest for clients, proven equivalent on the original's tests.
struct MinifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "minify",
        abstract: "Strip what clients do not read, minify scripts, and prove the result on the original's tests.",
        discussion: """
            Like Opener's minify.py: keeps only the keys clients read (no tests, docs or notes), writes `scheme` \
            `x://` as `x:`, drops actions left with no formats, writes compact JSON. Scripts lose comments and \
            whitespace (identifiers are never renamed); every test case of the original is then run on the result \
            and must end the same way, or nothing is written. Check it again later with \
            `switchyard test OUT --cases PATH`.
            """
    )

    @Argument(help: "The manifest to minify.", completion: .file(extensions: ["json"]))
    var path: String

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Where to write (default: standard output, as migrate).", valueName: "OUT"),
        completion: .file(extensions: ["json"])
    )
    var output: String?

    @Flag(help: "Also drop `new` flags and `previews`.")
    var stripNew = false

    @Flag(
        help:
            "Keep only what a client embedding the rules reads: also drops new, previews, iconURL, macStoreId, country, and script where script2 exists."
    )
    var stripForBundle = false

    @Flag(help: "Leave scripts exactly as written.")
    var noMangle = false

    @Flag(help: "Keep testInputs, testResults and redirect tests, so `switchyard test` runs on the output directly.")
    var keepTests = false

    @Flag(help: "Skip running the original's tests on the result.")
    var noVerify = false

    @OptionGroup(title: "Network (verification is offline by default: script cases that need it are skipped on both)")
    var network: NetworkOptions

    func run() async throws {
        let (loaded, original) = try await ManifestRewriting.load(path)
        guard let root = loaded.root else {
            throw CommandFailure(message: "\(path): error: the manifest has no document")
        }
        let options = ManifestMinifier.Options(
            stripNew: stripNew,
            stripForBundle: stripForBundle,
            minifyScripts: !noMangle,
            keepTests: keepTests
        )
        let result = ManifestMinifier(options: options).minify(root)
        let console = CommandOutput.current
        let target = output ?? "<stdout>"
        let originalBytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        console.printError(
            "\(path): \(originalBytes) bytes; keys stripped: \(result.keyStrippedBytes) bytes; minified: \(result.text.utf8.count) bytes (scripts: \(result.scriptsMinified) minified, \(result.scriptsKept) kept as written)"
        )
        for dropped in result.droppedActions { console.printError("\(path): dropped \(dropped): no formats") }
        if !noVerify {
            let rewritten = try ManifestRewriting.reload(result.text, name: target)
            let report = try await ManifestRewriting.verify(original: original, rewritten: rewritten, network: network)
            console.printError("verified: \(report.summary)")
        }
        if let output {
            try OutputFile.write(result.text, to: output)
            console.printError("wrote \(output)")
        } else {
            console.print(result.text, terminator: "")
        }
    }
}

/// `switchyard migrate PATH --to vN`: the manifest rewritten for another format version.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Rewrite a manifest for another format version (v1–v5), up or down.",
        discussion: """
            Renames keys (v4 shortened them), converts `scheme` (x:// before v4) and `storeId` (a number in v5). \
            Content the target's clients cannot read (script2 before v3, redirect rules before v3, browsers and \
            previews in v1, v1 apps without a store id) gets one warning per item and is kept, since clients skip \
            unknown keys, so migrating back restores the original; --drop-unsupported removes it instead. The \
            original's tests are run on the result (unless dropping) and must end the same way.
            """
    )

    @Argument(help: "The manifest to migrate.", completion: .file(extensions: ["json"]))
    var path: String

    @Option(help: ArgumentHelp("The target version (5 and V5 are read as v5).", valueName: "version"))
    var to: VersionArgument

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Where to write (default: standard output).", valueName: "OUT"),
        completion: .file(extensions: ["json"])
    )
    var output: String?

    @Flag(help: "Remove what the target version's clients cannot read instead of keeping it.")
    var dropUnsupported = false

    @Flag(help: "Skip running the original's tests on the result.")
    var noVerify = false

    @OptionGroup(title: "Network (verification is offline by default)")
    var network: NetworkOptions

    func run() async throws {
        let target = to.version
        let (loaded, original) = try await ManifestRewriting.load(path)
        let console = CommandOutput.current
        let migrator = ManifestMigrator(to: target, unsupported: dropUnsupported ? .drop : .keep)
        let result = migrator.migrate(loaded)
        for warning in result.warnings { console.printError(warning.description) }
        let text = JSONWriter(style: .pretty(indent: 4)).write(result.root)
        let name = output ?? "<stdout>"
        let rewritten = try ManifestRewriting.reload(text, name: name)
        console.printError("\(path): \(result.sourceVersion) → \(target); \(result.warnings.count, "warning")")
        if !noVerify && !dropUnsupported {
            let report = try await ManifestRewriting.verify(
                original: original,
                rewritten: rewritten,
                network: network
            )
            console.printError("verified: \(report.summary)")
        }
        if let output {
            try OutputFile.write(text, to: output)
            console.printError("wrote \(output)")
        } else {
            console.print(text, terminator: "")
        }
    }
}

/// `migrate --to`: a manifest format version, as LinkRules lists them (`v1` … `v5`; `5` and `V5` read as `v5`).
struct VersionArgument: ExpressibleByArgument {
    /// The version named.
    var version: ManifestVersion

    init?(argument: String) {
        let name = argument.lowercased().hasPrefix("v") ? argument.lowercased() : "v" + argument
        guard let version = ManifestVersion.allCases.first(where: { $0.description == name }) else { return nil }
        self.version = version
    }

    var defaultValueDescription: String { version.description }

    static var allValueStrings: [String] { ManifestVersion.allCases.map(\.description) }

    static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}
