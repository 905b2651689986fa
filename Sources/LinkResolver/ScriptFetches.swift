import LinkFetching
import LinkScripts
import Synchronization
import WebLinks

/// The network of one resolution's scripts: their `httpRequest`s through the resolution's ``ResolutionScope`` over the
/// shared fetching stack (identical requests of the resolution are made once, and the HTTP cache and politeness
/// apply). How long what the scripts returned may be kept is read from the scope's answers (``ResolutionScope/answer(to:)``):
/// this keeps only which links the scripts asked for.
///
/// A script's URL is parsed by the one link parser, like every other link: a text it refuses never reaches the
/// network, and what is fetched is what the parser read.
package final class ScriptFetches: ScriptNetwork {
    private let scope: ResolutionScope
    /// The links asked for, by the text the script gave.
    private let asked = Mutex<[String: Link]>([:])

    /// The network of one resolution's scripts over the resolution's `scope`.
    package init(scope: ResolutionScope) {
        self.scope = scope
    }

    /// The network of one resolution's scripts over a scope of their own over `fetcher`.
    package convenience init(fetcher: any LinkFetching) {
        self.init(scope: ResolutionScope(wrapping: fetcher))
    }

    /// The request a script's `url` is fetched with.
    private static func request(_ link: Link, timeout: Duration? = nil) -> FetchRequest {
        FetchRequest(url: link, timeout: timeout)
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
        asked.withLock { $0[url] = link }
        do {
            return try await scope.fetch(Self.request(link, timeout: deadline - ContinuousClock.now)).text
        } catch {
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

    /// The scope's answer to the script's `url`, when it was asked for and answered.
    private func answer(to url: String) -> Result<FetchResponse, FetchError>? {
        guard let link = asked.withLock({ $0[url] }) else { return nil }
        return scope.answer(to: Self.request(link))
    }

    /// How long an output made from the answers to `urls` may be kept: the shortest of their freshnesses (a failure
    /// the fetching layer remembers stands for that long); not at all when one of them may not be reused (or was
    /// never fetched here).
    package func cacheability(of urls: [String]) -> Cacheability {
        urls.reduce(Cacheability.unlimited) { cacheability, url in
            let freshness: Duration? =
                switch answer(to: url) {
                case .success(let response): response.freshness
                case .failure(let error): error.freshness
                case nil: nil
                }
            guard let freshness, freshness > .zero else {
                return .uncacheable(reason: "a script used an answer that may not be reused (\(url))")
            }
            return cacheability.combined(with: .upTo(freshness))
        }
    }

    /// The URLs the scripts asked for that were answered with a stale copy because their server failed, in order.
    package var staleURLs: [String] {
        asked.withLock { Array($0.keys) }.sorted().filter { url in
            if case .success(let response) = answer(to: url) { response.cacheStatus == .stale } else { false }
        }
    }
}
