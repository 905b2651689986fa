import Foundation
import HTTPTypes
import WebLinks

/// Downloads a file through a ``FetchingStack`` and keeps the last good copy, as the Opener app keeps its downloaded
/// manifest: used for `--manifest https://…`, the server's manifest URL, cleaning catalogs and the app chooser's
/// catalog refresh.
///
/// There is one cache: the stack's ``HTTPCache``, with its RFC 9111 rules and its clock. The downloader only adds a
/// persistent store under it, a folder where the last good copy stays across runs (`CacheStore`), and a check of
/// what it downloads:
/// - A copy younger than ``lifetime`` is used without a request (the request says `Cache-Control: max-age=` the
///   lifetime, and the lifetime is the freshness when the server says nothing), unless the server said less.
/// - A stale copy is revalidated with a conditional GET (`If-None-Match`, `If-Modified-Since`); a 304 refreshes it.
/// - A download that fails, answers with an error status, or whose body `validate` rejects (corrupt, truncated) never
///   replaces the good copy: that copy is returned with a warning. Only with no copy at all does the error reach the
///   caller.
public struct CachedDownloader: Sendable {
    /// The stack downloads go through (its HTTP cache keeps them; without one, nothing is kept).
    public let stack: FetchingStack
    /// The folder holding the copies kept across runs.
    public let directory: URL
    /// How long a copy is used without asking the server.
    public let lifetime: Duration

    /// Creates a downloader through `stack`, keeping its copies in `directory`.
    public init(stack: FetchingStack, directory: URL, lifetime: Duration = .seconds(24 * 60 * 60)) {
        self.stack = stack
        self.directory = directory
        self.lifetime = max(.zero, lifetime)
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
        var headers = HTTPFields()
        headers[.cacheControl] = "max-age=\(Int(lifetime.timeInterval.rounded(.down)))"
        let request = FetchRequest(url: link, headers: headers, fallbackFreshness: lifetime)
        let previous = stack.cache?.storedResponse(for: request, persistedIn: directory)
        do throws(FetchError) {
            let response = try await stack.fetch(request)
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
            let fetchedAt = fetchedAt(of: response)
            switch response.cacheStatus {
            case .hit?:
                return CachedDownload(data: data, source: .cache, fetchedAt: fetchedAt)
            case .stale?:
                return CachedDownload(
                    data: data,
                    source: .staleFallback,
                    fetchedAt: fetchedAt,
                    warning:
                        "'\(url)' could not be asked again. Using the copy fetched at \(fetchedAt.formatted(.iso8601))."
                )
            case .revalidated?, .miss?, nil:
                // A disk problem must not hide good data: return it, and say that it was not kept.
                var warning: String?
                do { try stack.cache?.persist(request, in: directory) } catch { warning = error.message }
                let source: CachedDownload.Source = response.cacheStatus == .revalidated ? .notModified : .network
                return CachedDownload(data: data, source: source, fetchedAt: fetchedAt, warning: warning)
            }
        } catch {
            guard let previous else { throw error }
            // What replaced the good copy in the cache (a body that failed its check) is not served again.
            stack.cache?.restore(previous)
            let fetchedAt = previous.responseTime
            return CachedDownload(
                data: Data(previous.response.body),
                source: .staleFallback,
                fetchedAt: fetchedAt,
                warning: "\(error.message) Using the copy fetched at \(fetchedAt.formatted(.iso8601))."
            )
        }
    }

    /// When the server last confirmed `response`: now for a new answer, its arrival less its age for a kept one.
    private func fetchedAt(of response: FetchResponse) -> Date {
        let age = response.headers[.age].flatMap { TimeInterval($0) } ?? 0
        return stack.clock.now.addingTimeInterval(
            response.cacheStatus == .hit || response.cacheStatus == .stale ? -age : 0
        )
    }
}
