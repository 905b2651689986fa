import Foundation
import LinkFetching
import LinkRules

/// Where a cleaning catalog (or its published hash) comes from: a file, or an http(s) URL.
public enum CleaningCatalogSource: Sendable, Hashable, CustomStringConvertible {
    /// A file.
    case file(String)
    /// A URL, downloaded through `CachedDownloader` (cached, conditional requests, last good copy kept).
    case url(String)

    /// The source an argument names: an `http(s)://` text is a URL, anything else a path.
    public init(argument: String) {
        let lowered = argument.lowercased()
        self = lowered.hasPrefix("https://") || lowered.hasPrefix("http://") ? .url(argument) : .file(argument)
    }

    /// The path or the URL.
    public var description: String {
        switch self {
        case .file(let path): path
        case .url(let url): url
        }
    }
}

/// A catalog loaded from a source, with the bytes it was decoded from and what the caller should hear about it.
public struct LoadedCleaningCatalog: Sendable {
    /// Where it came from.
    public var source: CleaningCatalogSource
    /// The decoded catalog.
    public var catalog: CleaningCatalog
    /// The catalog's bytes, as read or downloaded.
    public var data: Data
    /// For a URL, where the bytes came from (the network, the cache, or the last good copy after a failure).
    public var download: CachedDownload.Source?
    /// Whether the bytes were checked against the published hash.
    public var verified: Bool
    /// Why an older copy is used, or why a copy could not be checked, one sentence each.
    public var warnings: [String]
}

/// Loads a cleaning catalog from a file or a URL, checking it against ClearURLs' published SHA-256 when a hash source
/// is given (a URL catalog without a hash source is checked against nothing, except the official catalog, whose
/// hash URL is known: ``officialHashURL``).
///
/// A downloaded catalog must match the hash and decode before it replaces the cached copy: on a mismatch, a failed
/// download or an answer that is not a catalog, the last good copy is used and a warning says why; with no copy
/// at all, the load throws.
public struct CleaningCatalogLoader: Sendable {
    /// ClearURLs' published catalog, the one the add-on downloads.
    public static let officialCatalogURL = "https://rules2.clearurls.xyz/data.minify.json"
    /// The SHA-256 of ``officialCatalogURL``, in lower-case hexadecimal.
    public static let officialHashURL = "https://rules2.clearurls.xyz/rules.minify.hash"
    /// The largest catalog file read (the real one is about 100 KB).
    public static let maximumBytes = 16 << 20

    /// Downloads URLs; nil refuses URL sources.
    public var downloader: CachedDownloader?

    /// Creates a loader.
    public init(downloader: CachedDownloader?) {
        self.downloader = downloader
    }

    /// The hash source used for `source` when none is given: the official hash for the official catalog, else none.
    public static func defaultHash(for source: CleaningCatalogSource) -> CleaningCatalogSource? {
        source == .url(officialCatalogURL) ? .url(officialHashURL) : nil
    }

    /// Loads, checks and decodes the catalog at `source`; `hash` (default ``defaultHash(for:)``) is where the
    /// published SHA-256 is.
    public func load(
        _ source: CleaningCatalogSource,
        hash: CleaningCatalogSource? = nil
    ) async throws(CleaningError) -> LoadedCleaningCatalog {
        let hashSource = hash ?? Self.defaultHash(for: source)
        var warnings: [String] = []
        var published: String?
        if let hashSource { published = try await publishedHash(at: hashSource) }
        let data: Data
        var origin: CachedDownload.Source?
        var verified = false
        switch source {
        case .file(let path):
            data = try read(path, what: "catalog")
            if let published {
                try CleaningCatalog.verify(data: data, sha256Hex: published)
                verified = true
            }
        case .url(let url):
            let download = try await fetch(url, what: "catalog") { data throws(CleaningError) in
                if let published { try CleaningCatalog.verify(data: data, sha256Hex: published) }
                _ = try CleaningCatalog(data: data, file: url)
            }
            data = download.data
            origin = download.source
            if let warning = download.warning { warnings.append(warning) }
            if let published {
                // A downloaded copy was checked before it was kept; a cached one was checked when it was downloaded.
                verified = (try? CleaningCatalog.verify(data: data, sha256Hex: published)) != nil
                if !verified && download.source != .staleFallback {
                    warnings.append(
                        "the cached copy of \(url) does not match the hash published at \(hashSource!) now; it matched when it was downloaded"
                    )
                }
            }
        }
        let catalog = try CleaningCatalog(data: data, file: source.description)
        return LoadedCleaningCatalog(
            source: source,
            catalog: catalog,
            data: data,
            download: origin,
            verified: verified,
            warnings: warnings
        )
    }

    private func publishedHash(at source: CleaningCatalogSource) async throws(CleaningError) -> String {
        let data: Data
        switch source {
        case .file(let path):
            data = try read(path, what: "hash")
        case .url(let url):
            data = try await fetch(url, what: "hash") { data throws(CleaningError) in
                try CleaningCatalog.verify(
                    data: Data(),
                    sha256Hex: String(decoding: data, as: UTF8.self),
                    formatOnly: true
                )
            }.data
        }
        let text = String(decoding: data, as: UTF8.self)
        try CleaningCatalog.verify(data: Data(), sha256Hex: text, formatOnly: true)
        return text
    }

    private func read(_ path: String, what: String) throws(CleaningError) -> Data {
        do {
            return try UserFile.read(path, maximumBytes: Self.maximumBytes)
        } catch {
            throw CleaningError(.unavailable, error.message(for: "cleaning \(what)"))
        }
    }

    private func fetch(
        _ url: String,
        what: String,
        validate: @escaping (Data) throws(CleaningError) -> Void
    ) async throws(CleaningError) -> CachedDownload {
        guard let downloader else {
            throw CleaningError(.unavailable, "\(url): error: the cleaning \(what) is a URL, and downloads are off")
        }
        do {
            return try await downloader.load(url: url) { data in try validate(data) }
        } catch {
            throw CleaningError(.unavailable, "\(url): error: \(error.message)")
        }
    }
}
