import ArgumentParser
import Foundation
import LinkCleaning

/// `--clean-rules PATH|URL`, `--no-clean` and `--allow-referral-marketing` for the commands that resolve: the
/// cleaning stage of the pipeline, with ClearURLs' catalog. It is on whenever a catalog is at hand: the one given, or
/// the copy `switchyard clean --update` saved (no saved copy and none given: links are not cleaned).
struct CleaningArguments: ParsableArguments {
    @Option(
        name: .customLong("clean-rules"),
        help: ArgumentHelp(
            "The ClearURLs catalog that cleans links before the rules see them: a file or an http(s) URL (default: the copy 'switchyard clean --update' saved, when there is one).",
            valueName: "path|url"
        ),
        completion: .file(extensions: ["json"])
    )
    var cleanRules: String?

    @Flag(name: .customLong("no-clean"), help: "Do not clean links: tracking fields and redirect wrappers stay.")
    var noClean = false

    @Flag(help: "Keep referral-marketing fields (affiliate tags) when cleaning; tracking fields still go.")
    var allowReferralMarketing = false

    func validate() throws {
        if cleanRules != nil && noClean {
            throw ValidationError("--clean-rules and --no-clean cannot be used together")
        }
    }

    /// The catalog to clean with, from `store`, or nil when cleaning is off or no catalog is at hand; a catalog that
    /// cannot be used stops the command (status 2) with its located errors.
    func catalog(store: CleaningCatalogStore) async throws(CommandFailure) -> LoadedCleaningCatalog? {
        guard !noClean else { return nil }
        guard cleanRules != nil || store.hasSavedCatalog else { return nil }
        return try await CleanCommand.loadCatalog(rules: cleanRules, hash: nil, store: store)
    }

    /// The compiled ``catalog(store:)``, downloaded through `network` when it is a URL.
    func cleaner(network: NetworkOptions) async throws(CommandFailure) -> LinkCleaner? {
        try await catalog(store: CleanCommand.store(network: network)).map { LinkCleaner(catalog: $0.catalog) }
    }
}
