import Foundation
import HTTPTypes
import WebLinks

/// Downloads a file through a ``LinkFetching`` and keeps the last good copy on disk, as the Opener app keeps
/// its downloaded manifest: used for `--manifest https://…` and the app chooser's catalog refresh.
///
/// A fresh copy (younger than `lifetime`) is returned without a request. A stale one is revalidated with a
/// conditional GET (`If-None-Match`, `If-Modified-Since`); 304 refreshes its date. A download that fails, or
/// whose body the caller's `validate` rejects (corrupt, truncated), never replaces the good copy: the stale copy
/// is returned with a warning. Only when there is no copy at all does the error reach the caller.
public struct CachedDownloader: Sendable {
    /// The fetcher used for downloads (LinkFetchingHTTP's `LiveFetcher` with its policy, or a replayer in tests).
    public let fetcher: any LinkFetching
    /// The folder holding the cached bodies and their metadata.
    public let directory: URL
    /// How long a copy is used without asking the server.
    public let lifetime: Duration
    private let now: @Sendable () -> Date

    /// Creates a downloader caching in `directory`; `now` is injectable so tests can age the cache.
    public init(
        fetcher: any LinkFetching,
        directory: URL,
        lifetime: Duration = .seconds(24 * 60 * 60),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.fetcher = fetcher
        self.directory = directory
        self.lifetime = lifetime
        self.now = now
    }

    /// Returns the data for `url` from the cache or the network, keeping the last copy that passed `validate`.
    public func load(
        url: String,
        validate: (Data) throws -> Void = { _ in }
    ) async throws(FetchError) -> CachedDownload {
        let link: Link
        do {
            link = try Link(url)
        } catch {
            throw FetchError(.invalidURL, url: url, message: "'\(url)' cannot be downloaded: \(error.message).")
        }
        let store = CacheStore(directory: directory, url: url)
        let cached = store.read()
        let lifetimeSeconds = lifetime / .seconds(1)
        if let cached, now().timeIntervalSince(cached.metadata.fetchedAt) < lifetimeSeconds,
            now() >= cached.metadata.fetchedAt
        {
            return CachedDownload(data: cached.body, source: .cache, fetchedAt: cached.metadata.fetchedAt)
        }
        var headers = HTTPFields()
        if let cached {
            headers[.ifNoneMatch] = cached.metadata.etag
            headers[.ifModifiedSince] = cached.metadata.lastModified
        }
        do throws(FetchError) {
            let response = try await fetcher.fetch(FetchRequest(url: link, headers: headers))
            if response.status == 304, var cached {
                cached.metadata.fetchedAt = now()
                try store.writeMetadata(cached.metadata)
                return CachedDownload(data: cached.body, source: .notModified, fetchedAt: cached.metadata.fetchedAt)
            }
            guard (200..<300).contains(response.status) else {
                throw FetchError(
                    .httpStatus,
                    url: url,
                    message: "Downloading '\(url)' failed: the server answered HTTP \(response.status)."
                )
            }
            let data = Data(response.body)
            do {
                try validate(data)
            } catch {
                throw FetchError(
                    .invalidContent,
                    url: url,
                    message: "The download of '\(url)' was rejected: \(String(describing: error))."
                )
            }
            let metadata = CacheStore.Metadata(
                url: url,
                etag: response.headers[.eTag],
                lastModified: response.headers[.lastModified],
                fetchedAt: now(),
                bodyLength: data.count,
                bodyHash: StableHash.hex(data)
            )
            // A disk problem must not hide good data: return it, and say that it was not kept.
            var warning: String?
            do { try store.write(body: data, metadata: metadata) } catch { warning = error.message }
            return CachedDownload(data: data, source: .network, fetchedAt: metadata.fetchedAt, warning: warning)
        } catch {
            guard let cached else { throw error }
            return CachedDownload(
                data: cached.body,
                source: .staleFallback,
                fetchedAt: cached.metadata.fetchedAt,
                warning: "\(error.message) Using the copy fetched at \(cached.metadata.fetchedAt.formatted(.iso8601))."
            )
        }
    }
}
