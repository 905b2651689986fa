import LinkFetching
import LinkScripts
import Synchronization
import WebLinks

/// The network of one resolution's scripts: their `httpRequest`s through one fetcher (a ``ResolutionScope`` over the
/// shared fetching stack, so identical requests of the resolution are made once, and the HTTP cache and politeness
/// apply), and what each answer was, so the resolution knows how long what its scripts returned may be kept.
///
/// A script's URL is parsed by the one link parser, like every other link: a text it refuses never reaches the
/// network, and what is fetched is what the parser read.
package final class ScriptFetches: ScriptNetwork {
    /// What one URL's answer was.
    struct Record {
        /// How long the answer may be reused (nil or zero: not at all).
        var freshness: Duration?
        /// Whether the cache answered with its last good copy because the server failed (stale-if-error).
        var isStale: Bool
    }

    private let fetcher: any LinkFetching
    private let records = Mutex<[String: Record]>([:])

    /// The network of one resolution over `fetcher`.
    package init(fetcher: any LinkFetching) {
        self.fetcher = fetcher
    }

    /// Fetches `url` with GET before `deadline`; the body as text (whatever the status, as a browser's script would
    /// see it), or why there is none.
    package func get(_ url: String, deadline: ContinuousClock.Instant) async throws(ScriptNetworkError) -> String {
        let link: Link
        do {
            link = try Link(url)
        } catch {
            switch error.code {
            case .notWebLink, .userinfo, .backslash, .ambiguousHost, .badHost, .badPort:
                throw ScriptNetworkError(kind: .blocked, message: "'\(url)' is refused: \(error.message)")
            default:
                throw ScriptNetworkError(kind: .failed, message: "'\(url)' is not a link: \(error.message)")
            }
        }
        do {
            let response = try await fetcher.fetch(FetchRequest(url: link, timeout: deadline - ContinuousClock.now))
            records.withLock {
                $0[url] = Record(freshness: response.freshness, isStale: response.cacheStatus == .stale)
            }
            return response.text
        } catch {
            // A failure the fetching layer remembers stands as the answer for that long.
            records.withLock { $0[url] = Record(freshness: error.freshness, isStale: false) }
            switch error.code {
            case .offline: throw ScriptNetworkError(kind: .offline, message: error.description)
            case .blockedAddress, .forbiddenScheme, .forbiddenPort:
                throw ScriptNetworkError(kind: .blocked, message: error.description)
            case .backedOff: throw ScriptNetworkError(kind: .backedOff, message: error.description)
            case .hostDown:
                throw ScriptNetworkError(kind: .hostDown, message: "\(error.description) [\(error.identifier)]")
            default: throw ScriptNetworkError(kind: .failed, message: "\(error.description) [\(error.identifier)]")
            }
        }
    }

    /// How long an output made from the answers to `urls` may be kept: the shortest of their freshnesses; not at all
    /// when one of them may not be reused (or was never fetched here).
    package func cacheability(of urls: [String]) -> Cacheability {
        records.withLock { records in
            urls.reduce(Cacheability.unlimited) { cacheability, url in
                guard let freshness = records[url]?.freshness, freshness > .zero else {
                    return .uncacheable(reason: "a script used an answer that may not be reused (\(url))")
                }
                return cacheability.combined(with: .upTo(freshness))
            }
        }
    }

    /// The URLs answered with a stale copy because their server failed, in order.
    package var staleURLs: [String] {
        records.withLock { records in records.filter(\.value.isStale).map(\.key).sorted() }
    }
}
