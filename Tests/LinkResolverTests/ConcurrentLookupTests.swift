import Foundation
import LinkFetching
import LinkFetchingHTTP
import LinkMatching
import LinkResolver
import LinkRules
import SwitchyardTestSupport
import Synchronization
import Testing

/// One resolution's sub-requests run concurrently (#28): the link's own answer, wanted only for `headers` rules
/// because an action already opens the link, is asked while the action's script asks its API — so a link costs one
/// network round trip, not two.
@Suite struct ConcurrentLookupTests {
    /// An action whose script asks `/api`, and a `headers` rule on the same link.
    static func rules(port: Int) throws -> RuleSet {
        try RuleSet.load(
            """
            {"apps": [{"identifier": "app", "name": "App", "scheme": "app"}, {"identifier": "blog", "name": "Blog", "scheme": "blog"}],
             "actions": [
               {"title": "Open", "regex": "http://127\\\\.0\\\\.0\\\\.1:\(port)/post/(\\\\d+)$", "formats": [
                 {"appId": "app", "script2": "function process(url, done) { done('app://' + jsonRequest('http://127.0.0.1:\(port)/api').id); }"}]},
               {"title": "Blog", "headers": true, "regex": "http://127\\\\.0\\\\.0\\\\.1:\(port)/post/.*\\\\n.*\\"X-Blog\\":\\"(\\\\w+)\\".*$", "formats": [{"appId": "blog", "format": "blog://$1"}]}
             ]}
            """
        )
    }

    @Test func theLinksOwnAnswerIsAskedWhileTheScriptsRun() async throws {
        // The page answers only once the script's API request has arrived: asked one after the other, the page would
        // wait for a request that comes only after it, and the resolution would run out of time.
        let apiAsked = Mutex(false)
        let server = try await LoopbackHTTPServer.start { request in
            if request.path == "/api" {
                apiAsked.withLock { $0 = true }
                return .text(#"{"id": "7"}"#, headers: [.init("Cache-Control", "max-age=60")])
            }
            for _ in 0..<300 where !apiAsked.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(10)) }
            let answered = apiAsked.withLock { $0 }
            return .text("page", headers: [.init("X-Blog", answered ? "concurrent" : "sequential")])
        }
        defer { Task { await server.stop() } }
        let fetcher = FetchingStack(upstream: LiveFetcher(policy: NetworkPolicy(allowPrivateAddresses: true)))
        let resolver = Resolver(
            rules: try Self.rules(port: server.port),
            engine: ScriptEngine(fetcher: fetcher),
            fetcher: fetcher
        )
        let resolution = try await resolver.resolve(
            server.url("/post/7"),
            ResolveRequest(match: MatchOptions(includeBrowsers: false), timeLimit: .seconds(10))
        )
        #expect(resolution.openings.map(\.url) == ["app://7", "blog://concurrent"])
        #expect(server.requests.map(\.method).sorted() == ["GET", "HEAD"])
    }
}
