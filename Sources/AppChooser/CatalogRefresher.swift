import Foundation
import LinkFetching

/// Keeps app-type data fresh from a server: `<base>/<type>.json` for each type, through `LinkFetching` and a
/// disk cache (24-hour lifetime by default, conditional requests), merged over the bundled catalog. Offline, or
/// when a download is corrupt or partial, the last good copy (or the bundled data) is used: bad data never
/// replaces good data.
public struct CatalogRefresher: Sendable {
    /// The server folder the types are downloaded from (`<baseURL>/<type>.json`), without a trailing slash.
    public let baseURL: String
    /// Downloads through the fetcher and keeps the last good copy of each type on disk.
    public let downloader: CachedDownloader

    /// Creates a refresher that downloads from `baseURL` through `stack` (its HTTP cache, on its clock) and keeps the
    /// last good copies in `cacheDirectory`; a copy younger than `lifetime` is used without a request.
    public init(
        baseURL: String,
        stack: FetchingStack,
        cacheDirectory: URL,
        lifetime: Duration = .seconds(24 * 60 * 60)
    ) {
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        downloader = CachedDownloader(stack: stack, directory: cacheDirectory, lifetime: lifetime)
    }

    /// The catalog with every downloadable type merged over `base`, and a warning for each type that could not
    /// be refreshed.
    public func refresh(
        _ base: AppCatalog,
        types: [String]
    ) async -> (catalog: AppCatalog, downloads: [String: CachedDownload.Source], warnings: [String]) {
        var catalog = base
        var sources: [String: CachedDownload.Source] = [:]
        var warnings: [String] = []
        for type in types {
            let url = "\(baseURL)/\(type).json"
            do {
                let download = try await downloader.load(url: url) { data in
                    _ = try AppCatalog.decode(data, source: url)
                }
                catalog = catalog.merging(try AppCatalog.decode(download.data, source: url))
                sources[type] = download.source
                if let warning = download.warning { warnings.append("\(url): \(warning)") }
            } catch {
                warnings.append("\(url): \(error); using the bundled data")
            }
        }
        return (catalog, sources, warnings)
    }
}
