import LinkFetching
import LinkResolver
import LinkScripts
import Synchronization
import Testing
import WebLinks

/// A script run that made no network request is kept by script and input, and given again instead of running the
/// script; a run that fetched, or that ran out of time, runs again every time.
struct ScriptResultCacheTests {
    static let length = "function process(url, done) { done('app://' + url.length) }"
    static let thrower = "function process(url, done) { throw new Error('no ' + url) }"
    static let fetcher = "function process(url, done) { done('app://' + httpRequest(url)) }"
    static let loop = "function process(url, done) { while (true) {} }"

    /// The input the runs get unless a test says otherwise.
    static let input = "https://a.example/x"

    @Test func theSameScriptOnTheSameInputIsRunOnce() async throws {
        let engine = ScriptEngine(fetcher: nil)
        #expect(try await engine.run(source: Self.length, input: Self.input).success == "app://19")
        #expect(try await engine.run(source: Self.length, input: Self.input).success == "app://19")
        #expect(engine.reusedResultCount == 1)
        // Another input, or another script, runs.
        #expect(try await engine.run(source: Self.length, input: "https://a.example/xy").success == "app://20")
        #expect(try await engine.run(source: Self.thrower, input: Self.input).failure?.code == .exception)
        #expect(engine.reusedResultCount == 1)
    }

    /// One source may serve several rules: a kept error names the rule that asked.
    @Test func aKeptErrorNamesTheRuleThatAsked() async throws {
        let engine = ScriptEngine(fetcher: nil)
        let first = try await engine.run(source: Self.thrower, input: Self.input, rule: "/actions/1/formats/0")
        let second = try await engine.run(source: Self.thrower, input: Self.input, rule: "/actions/7/formats/2")
        #expect(engine.reusedResultCount == 1)
        #expect(first.failure?.rule == "/actions/1/formats/0")
        #expect(second.failure?.rule == "/actions/7/formats/2")
        #expect(first.failure?.message == second.failure?.message)
    }

    @Test func aRunThatFetchedRunsAgain() async throws {
        let counter = CountingFetcher()
        let engine = ScriptEngine(fetcher: counter)
        #expect(try await engine.run(source: Self.fetcher, input: Self.input).success == "app://page")
        #expect(try await engine.run(source: Self.fetcher, input: Self.input).success == "app://page")
        #expect(counter.count == 2)
        #expect(engine.reusedResultCount == 0)
    }

    /// An offline run's request never leaves, so its outcome (`E_NEEDS_NETWORK`) depends on the input alone.
    @Test func aRequestRefusedOfflineIsNotANetworkUse() async throws {
        let engine = ScriptEngine(fetcher: OfflineFetcher())
        for _ in 0..<2 {
            #expect(try await engine.run(source: Self.fetcher, input: Self.input).failure?.code == .needsNetwork)
        }
        #expect(engine.reusedResultCount == 1)
    }

    @Test func aRunStoppedAtItsDeadlineRunsAgain() async throws {
        let engine = ScriptEngine(fetcher: nil)
        for _ in 0..<2 {
            let result = try await engine.run(source: Self.loop, input: Self.input, limit: .milliseconds(50))
            #expect(result.failure?.code == .timeout)
        }
        #expect(engine.reusedResultCount == 0)
    }

    @Test func theCacheIsBoundedAndCanBeTurnedOff() async throws {
        // About two entries per generation: each counts its input, its output and 96 bytes.
        let bounded = ScriptEngine(fetcher: nil, resultCacheCapacity: 2 * 2 * (20 + 8 + 96))
        for index in 0..<10 {
            _ = try await bounded.run(source: Self.length, input: "https://a.example/\(index)")
        }
        // The first inputs are gone, the last one is kept.
        _ = try await bounded.run(source: Self.length, input: "https://a.example/0")
        #expect(bounded.reusedResultCount == 0)
        _ = try await bounded.run(source: Self.length, input: "https://a.example/9")
        #expect(bounded.reusedResultCount == 1)

        let off = ScriptEngine(fetcher: nil, resultCacheCapacity: 0)
        for _ in 0..<2 { _ = try await off.run(source: Self.length, input: Self.input) }
        #expect(off.reusedResultCount == 0)
    }
}

/// Answers every request with the body `page`, counting them.
final class CountingFetcher: LinkFetching {
    private let requests = Atomic<Int>(0)

    var count: Int { requests.load(ordering: .relaxed) }

    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        requests.add(1, ordering: .relaxed)
        return FetchResponse(url: request.url, status: 200, body: Array("page".utf8))
    }
}
