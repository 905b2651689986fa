import LinkFetching
import LinkScripts
import Synchronization
import WebLinks

/// The network of one resolution's scripts: their `httpRequest`s through the resolution's ``ResolutionScope`` over the
/// shared fetching stack (identical requests of the resolution are made once, and the HTTP cache and politeness
/// apply). The scope is the one record of their answers: what a script run again finds at hand
/// (``answer(to:)``) and how long what the scripts returned may be kept are read from it
/// (``ResolutionScope/answer(to:)``); this keeps only which links the scripts asked for (or why one was refused before
/// it left).
///
/// A script's URL is parsed by the one link parser, like every other link: a text it refuses never reaches the
/// network, and what is fetched is what the parser read.
package final class ScriptFetches: ScriptNetwork {
    private let scope: ResolutionScope
    /// The links asked for, by the text the script gave, or why the text was refused.
    private let asked = Mutex<[String: Result<Link, ScriptNetworkError>]>([:])

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
        let parsed = Self.link(url)
        asked.withLock { $0[url] = parsed }
        let link = try parsed.get()
        do {
            return try await scope.fetch(Self.request(link, timeout: deadline - ContinuousClock.now)).text
        } catch {
            throw Self.scriptError(error)
        }
    }

    /// What the scripts' network answered for `url`: the scope's answer to its link, or why its text was refused.
    package func answer(to url: String) -> Result<String, ScriptNetworkError>? {
        switch asked.withLock({ $0[url] }) {
        case nil: nil
        case .failure(let refusal): .failure(refusal)
        case .success(let link):
            scope.answer(to: Self.request(link)).map { answer in answer.map(\.text).mapError(Self.scriptError) }
        }
    }

    /// The link a script's `url` reads as, or why it is refused.
    private static func link(_ url: String) -> Result<Link, ScriptNetworkError> {
        do {
            return .success(try Link(url))
        } catch {
            switch error.code {
            case .notWebLink, .userinfo, .backslash, .ambiguousHost, .badHost, .badPort:
                return .failure(ScriptNetworkError(kind: .blocked, message: "'\(url)' is refused: \(error.message)"))
            default:
                return .failure(ScriptNetworkError(kind: .failed, message: "'\(url)' is not a link: \(error.message)"))
            }
        }
    }

    /// A fetching error as a script sees it.
    private static func scriptError(_ error: FetchError) -> ScriptNetworkError {
        switch error.code {
        case .offline: ScriptNetworkError(kind: .offline, message: error.description)
        case .blockedAddress, .forbiddenScheme, .forbiddenPort:
            ScriptNetworkError(kind: .blocked, message: error.description)
        case .backedOff: ScriptNetworkError(kind: .backedOff, message: error.description)
        case .hostDown: ScriptNetworkError(kind: .hostDown, message: "\(error.description) [\(error.identifier)]")
        default: ScriptNetworkError(kind: .failed, message: "\(error.description) [\(error.identifier)]")
        }
    }

    /// The scope's answer to the script's `url`, when it was asked for, could be sent and was answered.
    private func response(to url: String) -> Result<FetchResponse, FetchError>? {
        guard case .success(let link) = asked.withLock({ $0[url] }) else { return nil }
        return scope.answer(to: Self.request(link))
    }

    /// How long an output made from the answers to `urls` may be kept: the shortest of their freshnesses (a failure
    /// the fetching layer remembers stands for that long); not at all when one of them may not be reused (or was
    /// never fetched here).
    package func cacheability(of urls: [String]) -> Cacheability {
        urls.reduce(Cacheability.unlimited) { cacheability, url in
            let freshness: Duration? =
                switch response(to: url) {
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
            if case .success(let response) = response(to: url) { response.cacheStatus == .stale } else { false }
        }
    }
}
