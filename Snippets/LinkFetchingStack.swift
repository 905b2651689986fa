// The program of LinkFetching's article on the fetching stack, which shows it slice by slice. `swift build` builds
// it, and SwitchyardCLITests runs it: its output must be exactly the `// → ` lines, in order.

// snippet.upstream
import HTTPTypes
import LinkFetching
import Synchronization
import WebLinks

// A song-link API in memory: it counts what it is asked, answers `max-age=300`, and can be made to fail.
final class SongLinkAPI: LinkFetching, Sendable {
    let asked = Mutex(0)
    let failing = Mutex(false)

    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        asked.withLock { $0 += 1 }
        if request.url.hostName == "gone.example" {
            throw FetchError(.connectionRefused, url: request.url.text, message: "Nobody listens there.")
        }
        if failing.withLock({ $0 }) {
            throw FetchError(.transport, url: request.url.text, message: "The API is down.")
        }
        if request.url.text.hasSuffix("/busy") {
            return FetchResponse(url: request.url, status: 429, headers: [.retryAfter: "60"])
        }
        let maxAge = request.url.text.hasSuffix("/volatile") ? 0 : 300
        return FetchResponse(
            url: request.url,
            status: 200,
            headers: [.cacheControl: "max-age=\(maxAge)", .contentType: "application/json"],
            body: Array(#"{"linksByPlatform":{}}"#.utf8)
        )
    }
}

/// Whole seconds of a freshness (nil: none).
func seconds(_ freshness: Duration?) -> Int { Int(((freshness ?? .zero) / .seconds(1)).rounded()) }
// snippet.end

// snippet.scope
let api = SongLinkAPI()
// Cache, coalescing and per-host politeness with their defaults, over the upstream (LiveFetcher in a real program).
let stack = FetchingStack(upstream: api)
let links = try Link("https://api.song.link/v1-alpha.1/links?url=spotify%3Atrack%3A1")

// One resolution: eight scripts ask for the same URL at once, through the resolution's scope.
let scope = stack.scope()
let answers = try await withThrowingTaskGroup(of: Int.self) { group in
    for _ in 0..<8 { group.addTask { try await scope.fetch(FetchRequest(url: links)).status } }
    var statuses: [Int] = []
    for try await status in group { statuses.append(status) }
    return statuses
}
print(answers.count, api.asked.withLock { $0 })
// → 8 1

// The next resolution is answered by the cache, with what is left of max-age=300.
let next = try await stack.scope().fetch(FetchRequest(url: links))
print(next.cacheStatus!, seconds(next.freshness), api.asked.withLock { $0 })
// → hit 300 1
// snippet.end

// snippet.failures
// An answer already stale when the API goes down: the last good one comes back, marked stale.
let volatile = try Link("https://api.song.link/volatile")
_ = try await stack.fetch(FetchRequest(url: volatile))
api.failing.withLock { $0 = true }
let stale = try await stack.fetch(FetchRequest(url: volatile))
print(stale.cacheStatus!, stale.status, stale.isReusable)
// → stale 200 false

// A host that answers 429 with Retry-After is left alone until then: the next request fails without being sent.
api.failing.withLock { $0 = false }
let busy = try Link("https://api.song.link/busy")
print(try await stack.fetch(FetchRequest(url: busy)).status)
// → 429
let other = FetchRequest(url: try Link("https://api.song.link/other"))
do {
    _ = try await stack.fetch(other)
} catch {
    print(error.code)
}
// → backedOff

// A host that refuses a connection is down: its other links fail at once, without being sent, until it is probed.
let before = api.asked.withLock { $0 }
for path in ["/a", "/b", "/c"] {
    let request = FetchRequest(url: try Link("https://gone.example\(path)"))
    do {
        _ = try await stack.fetch(request)
    } catch {
        print(path, error.code, seconds(error.freshness))
    }
}
print(api.asked.withLock { $0 } - before)
// → /a connectionRefused 1
// → /b hostDown 1
// → /c hostDown 1
// → 1
// snippet.end
