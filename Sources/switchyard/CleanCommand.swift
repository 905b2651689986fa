import ArgumentParser
import Foundation
import LinkCleaning
import LinkFetching
import LinkRules
import WebLinks

/// `switchyard clean`: links without their tracking fields, with ClearURLs' catalog.
struct CleanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clean",
        abstract: "Remove tracking fields from links and unwrap redirect links, with ClearURLs' rule catalog.",
        discussion: """
            The catalog is --rules (a file or an http(s) URL, downloaded and cached), else the copy --update last \
            saved in $XDG_CACHE_HOME/switchyard/clearurls (else ~/.cache/switchyard/clearurls). --update downloads \
            the official catalog (or --rules URL) and checks it against its published SHA-256 (or --hash) before \
            keeping it. Prints one cleaned link per input; a link a complete provider blocks is printed too, with a \
            note on standard error.
            """
    )

    @Argument(help: "The links to clean.") var links: [String] = []
    @Option(
        help: ArgumentHelp(
            "The ClearURLs catalog (data.min.json): a file, or an http(s) URL (downloaded and cached).",
            valueName: "path|url"
        ),
        completion: .file(extensions: ["json"])
    ) var rules: String?
    @Option(
        help: ArgumentHelp(
            "The catalog's published SHA-256 (rules.min.hash): a file or a URL; a catalog that differs is refused.",
            valueName: "path|url"
        ),
        completion: .file()
    ) var hash: String?
    @Flag(help: "Keep referral-marketing fields (affiliate tags); tracking fields are still removed.")
    var allowReferralMarketing = false
    @Flag(help: "Download the catalog (--rules URL, default the official one) and its hash into the cache.")
    var update = false
    @Flag(help: "List under each link what was removed or unwrapped, and by which rule.") var explain = false
    @Flag(help: "Print one JSON object.") var json = false

    @OptionGroup(title: "Network (used by --update and --rules URL)")
    var network: NetworkOptions

    func validate() throws {
        if links.isEmpty && !update { throw ValidationError("give at least one link to clean, or --update") }
        if update, let rules, case .file = CleaningCatalogSource(argument: rules) {
            throw ValidationError("--update downloads a catalog: --rules must be an http(s) URL with it")
        }
        if json && explain { throw ValidationError("--json already lists every step; --explain is for text output") }
    }

    /// Where `--update` keeps the catalog and its hash (`$XDG_CACHE_HOME/switchyard/clearurls`).
    static var cacheDirectory: URL { UserDirectories.current.cache.appendingPathComponent("switchyard/clearurls") }

    /// The catalog store in ``cacheDirectory``, downloading through `network`'s fetcher (nil or `--offline`: from the
    /// download cache only).
    static func store(network: NetworkOptions?) throws(CommandFailure) -> CleaningCatalogStore {
        store(stack: try network?.fetcher(onlineByDefault: true))
    }

    /// The catalog store in ``cacheDirectory``, downloading through `stack` (nil: from the download cache only).
    static func store(stack: FetchingStack?) -> CleaningCatalogStore {
        CleaningCatalogStore(directory: cacheDirectory, stack: stack)
    }

    func run() async throws {
        let output = CommandOutput.current
        let loaded = try await Self.loadCatalog(
            rules: rules,
            hash: hash,
            update: update,
            store: Self.store(network: network)
        )
        if update {
            try save(loaded)
            output.printError(
                "\(Self.store(stack: nil).savedCatalog.path): \(loaded.catalog.providers.count, "provider") saved\(loaded.verified ? ", SHA-256 verified" : "")"
            )
        }
        guard !links.isEmpty else { return }
        let cleaner = LinkCleaner(catalog: loaded.catalog)
        let options = CleaningOptions(allowReferralMarketing: allowReferralMarketing)
        var items: [CleanDocument.Item] = []
        for text in links {
            do {
                items.append(CleanDocument.Item(input: text, result: try cleaner.clean(text, options: options)))
            } catch {
                items.append(CleanDocument.Item(input: text, error: error))
            }
        }
        if json {
            try output.printJSON(CleanDocument(catalog: loaded.summary, results: items))
        } else {
            for item in items { print(item, output: output) }
        }
        if items.contains(where: { $0.error != nil }) { throw ExitCode(CommandFailure.badInput) }
    }

    private func print(_ item: CleanDocument.Item, output: CommandOutput) {
        guard let result = item.result else {
            output.printError("error: \"\(item.input)\" is not a link: \(item.error?.description ?? "")")
            return
        }
        output.print(result.link)
        if let provider = result.blockedBy {
            output.printError("\(result.input): note: the complete provider \"\(provider)\" blocks this link")
        }
        guard explain else { return }
        for step in result.steps { output.print("  \(step)") }
        if result.skipped { output.print("  left alone: the host is skipped") }
        if result.timedOut { output.print("  a rule ran out of time and was taken as not matching") }
        if result.steps.isEmpty && !result.skipped { output.print("  nothing to remove") }
    }

    /// Loads the catalog `rules` names through ``CleaningCatalogStore`` (with `update`, the official URL by default;
    /// without either, the copy `--update` saved), checked against `hash` (or the saved or official one); prints its
    /// warnings and refused regexes on stderr. How `clean`, `resolve`, `explain` and `serve` get a catalog.
    static func loadCatalog(
        rules: String?,
        hash: String?,
        update: Bool = false,
        store: CleaningCatalogStore
    ) async throws(CommandFailure) -> LoadedCleaningCatalog {
        let source = rules.map(CleaningCatalogSource.init(argument:))
        let loaded: LoadedCleaningCatalog
        do {
            loaded = try await store.load(
                rules: source,
                hash: hash.map(CleaningCatalogSource.init(argument:)),
                update: update
            )
        } catch {
            if error == CleaningCatalogStore.noCatalog {
                throw CommandFailure(
                    message:
                        "error: no cleaning catalog: pass --rules PATH|URL, or download ClearURLs' catalog once with 'switchyard clean --update' (saved in \(cacheDirectory.path))"
                )
            }
            for diagnostic in error.diagnostics { CommandOutput.current.printError(diagnostic.description) }
            let message = error.diagnostics.isEmpty ? error.message : "the cleaning catalog cannot be used"
            let name = source?.description ?? store.savedCatalog.path
            throw CommandFailure(message: message.contains(": error: ") ? message : "\(name): error: \(message)")
        }
        let output = CommandOutput.current
        for warning in loaded.warnings { output.printError("warning: \(warning)") }
        for diagnostic in loaded.catalog.diagnostics { output.printError(diagnostic.description) }
        return loaded
    }

    /// Keeps the verified catalog and its hash where a later `clean` without --rules finds them.
    private func save(_ loaded: LoadedCleaningCatalog) throws(CommandFailure) {
        let store = Self.store(stack: nil)
        try OutputFile.createDirectory(Self.cacheDirectory.path, what: "cleaning catalog's folder")
        try OutputFile.write(
            String(decoding: loaded.data, as: UTF8.self),
            to: store.savedCatalog.path,
            what: "cleaning catalog"
        )
        try OutputFile.write(
            CleaningCatalog.sha256Hex(loaded.data) + "\n",
            to: store.savedHash.path,
            what: "cleaning catalog's hash"
        )
    }
}

/// `switchyard clean --json`: the catalog used and one entry per input.
struct CleanDocument: Encodable {
    /// What catalog was used.
    struct Catalog: Encodable {
        var source: String
        var providers: Int
        var verified: Bool
        var diagnostics: [Diagnostic]
    }

    /// One input: its result, or why it is not a link.
    struct Item: Encodable {
        var input: String
        var result: CleaningResult?
        var error: LinkError?

        init(input: String, result: CleaningResult? = nil, error: LinkError? = nil) {
            self.input = input
            self.result = result
            self.error = error
        }
    }

    var catalog: Catalog
    var results: [Item]
}

extension LoadedCleaningCatalog {
    /// The catalog part of the JSON document.
    fileprivate var summary: CleanDocument.Catalog {
        CleanDocument.Catalog(
            source: source.description,
            providers: catalog.providers.count,
            verified: verified,
            diagnostics: catalog.diagnostics
        )
    }
}
