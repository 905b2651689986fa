import Foundation
import LinkFetching

/// How a program gets its cleaning catalog, the one way `switchyard clean`, `resolve`, `explain` and `serve` do:
/// the catalog named (a file, or a URL downloaded through the download cache), else the copy `clean --update` saved
/// in ``directory``, checked against its published SHA-256.
public struct CleaningCatalogStore: Sendable {
    /// Where the download cache and the saved copy live (`$XDG_CACHE_HOME/switchyard/clearurls` for the CLI).
    public let directory: URL
    /// The network for URL sources (nil: offline; a URL is then answered from the copy kept in ``directory``).
    public let stack: FetchingStack?

    /// Creates a store over `directory`, downloading through `stack` (nil: offline).
    public init(directory: URL, stack: FetchingStack?) {
        self.directory = directory
        self.stack = stack
    }

    /// The saved copy of the catalog (`data.min.json`).
    public var savedCatalog: URL { directory.appendingPathComponent("data.min.json") }
    /// The saved copy's published hash (`rules.min.hash`).
    public var savedHash: URL { directory.appendingPathComponent("rules.min.hash") }

    /// Whether a saved copy exists (cleaning is on by default only then).
    public var hasSavedCatalog: Bool { FileManager.default.fileExists(atPath: savedCatalog.path) }

    /// Loads the catalog: `rules` (with `update`, the official URL when none is given; without either, the saved
    /// copy), checked against `hash` (else the saved hash for the saved copy, else the official one for the official
    /// catalog). Throws ``CleaningError`` with code `unavailable` and no diagnostics when there is no catalog at all.
    public func load(
        rules: CleaningCatalogSource?,
        hash: CleaningCatalogSource?,
        update: Bool = false
    ) async throws(CleaningError) -> LoadedCleaningCatalog {
        var source = rules
        var hashSource = hash
        if source == nil && update { source = .url(CleaningCatalogLoader.officialCatalogURL) }
        if source == nil {
            guard hasSavedCatalog else { throw Self.noCatalog }
            source = .file(savedCatalog.path)
            if hashSource == nil, FileManager.default.fileExists(atPath: savedHash.path) {
                hashSource = .file(savedHash.path)
            }
        }
        guard let source else { throw Self.noCatalog }
        // Offline, a URL is answered from the cache (a copy downloaded earlier), never the network; --update always
        // asks the network.
        let offline = update ? nil : FetchingStack(upstream: OfflineFetcher(), limits: nil)
        let downloader = (stack ?? offline).map { CachedDownloader(stack: $0, directory: directory) }
        return try await CleaningCatalogLoader(downloader: downloader).load(source, hash: hashSource)
    }

    /// The error for no catalog at all.
    public static let noCatalog = CleaningError(.unavailable, "no cleaning catalog")
}
