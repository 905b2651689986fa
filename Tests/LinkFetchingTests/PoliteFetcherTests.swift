import Foundation
import LinkFetching
import LinkFetchingHTTP
import MetricsTestKit
import SwitchyardTestSupport
import Synchronization
import Testing

/// Per-host politeness: slots, rate, Retry-After back-off, and the metrics of what is sent.
@Suite struct PoliteFetcherTests {
    let time = TestTime()

    func polite(_ limits: HostLimits, metrics: TestMetrics = TestMetrics()) -> PoliteFetcher {
        PoliteFetcher(
            wrapping: LiveFetcher(policy: testPolicy()),
            limits: limits,
            clock: time.clock,
            metrics: FetchMetrics(factory: metrics)
        )
    }

    /// A `Retry-After` form and the seconds it asks for.
    struct RetryCase: Sendable, CustomTestStringConvertible {
        var status: Int
        var retryAfter: @Sendable (TestTime) -> String
        var seconds: Int
        var testDescription: String
    }

    static let retries: [RetryCase] = [
        RetryCase(status: 429, retryAfter: { _ in "120" }, seconds: 120, testDescription: "429, seconds"),
        RetryCase(status: 503, retryAfter: { $0.httpDate(in: 90) }, seconds: 90, testDescription: "503, HTTP date"),
        RetryCase(status: 429, retryAfter: { _ in "99999999999" }, seconds: 3600, testDescription: "cut to the cap"),
    ]

    @Test(arguments: retries)
    func retryAfterBacksTheHostOffThenLetsItRecover(_ test: RetryCase) async throws {
        let answered = Mutex(0)
        let server = try await Server.start { [time] _ in
            guard
                answered.withLock({
                    $0 += 1
                    return $0
                }) == 1
            else { return .text("welcome back") }
            return .text(
                "slow down",
                status: test.status,
                headers: [.init("Retry-After", test.retryAfter(time)), .init("Date", time.httpDate)]
            )
        }
        let metrics = TestMetrics()
        let fetcher = polite(HostLimits(maxBackOff: .seconds(3600)), metrics: metrics)
        let first = try await fetcher.fetch(request(server, "/a"))
        time.advance(test.seconds - 1)
        let refused = await fetchError { () async throws(FetchError) in try await fetcher.fetch(request(server, "/b")) }
        time.advance(1)
        let recovered = try await fetcher.fetch(request(server, "/a"))
        await server.stop()
        #expect(first.status == test.status)
        #expect(refused?.code == .backedOff)
        #expect(refused?.identifier == "E_BACKED_OFF")
        let until = time.start.addingTimeInterval(TimeInterval(test.seconds)).formatted(.iso8601)
        #expect(refused?.message.contains(until) == true, "\(refused?.message ?? "")")
        #expect(recovered.text == "welcome back")
        #expect(server.requestCount == 2, "the refused request was never sent")
        let host = FetchMetrics.host(of: first.url)
        #expect(metrics.counterTotal(label: "switchyard_fetch_requests_total", dimensions: [("host", host)]) == 2)
        #expect(metrics.counterTotal(label: "switchyard_fetch_backoffs_total", dimensions: [("host", host)]) == 1)
        #expect(metrics.counterTotal(label: "switchyard_fetch_backed_off_total", dimensions: [("host", host)]) == 1)
        #expect(
            metrics.counterTotal(
                label: "switchyard_fetch_responses_total",
                dimensions: [("host", host), ("class", "4xx")]
            )
                == (test.status == 429 ? 1 : 0)
        )
    }

    @Test func theConcurrencyLimitHoldsBackTheRest() async throws {
        let gate = Gate()
        let server = try await Server.start { request in
            await gate.pass()
            defer { gate.leave() }
            return .text(request.path)
        }
        let fetcher = polite(HostLimits(maxConcurrentRequests: 2, requestsPerSecond: 1000, burst: 100))
        let paths = (0..<5).map { "/\($0)" }
        let tasks = paths.map { path in Task { try await fetcher.fetch(request(server, path)).text } }
        await eventually("two sent, three waiting") {
            let load = fetcher.load(for: request(server, "/"))
            return gate.arrived == 2 && load.active == 2 && load.waiting == 3
        }
        #expect(server.requestCount == 2)
        gate.open()
        var answers: [String] = []
        for task in tasks { answers.append(try await task.value) }
        await server.stop()
        #expect(answers == paths)
        #expect(gate.mostActive == 2)
        #expect(fetcher.load(for: request(server, "/")).active == 0)
    }

    @Test func waitingForASlotEndsAtTheRequestsTimeLimit() async throws {
        let gate = Gate()
        let server = try await Server.start { _ in
            await gate.pass()
            defer { gate.leave() }
            return .text("done")
        }
        let fetcher = polite(HostLimits(maxConcurrentRequests: 1))
        let holder = Task { try await fetcher.fetch(request(server, "/hold")) }
        await eventually("the slot is taken") { gate.arrived == 1 }
        let waiter = Task { try await fetcher.fetch(request(server, "/wait", timeout: .seconds(2))) }
        await eventually("one waits") { fetcher.load(for: request(server, "/")).waiting == 1 }
        time.advance(3)
        let outcome = await waiter.result
        gate.open()
        _ = try await holder.value
        await server.stop()
        #expect(failureCode(outcome) == .timeout)
        #expect(server.requestCount == 1)
    }

    @Test func theRateLimitPacesRequestsOnTheClock() async throws {
        let server = try await Server.start { request in .text(request.path) }
        let fetcher = polite(HostLimits(requestsPerSecond: 1, burst: 2))
        let tasks = (0..<3).map { index in Task { try await fetcher.fetch(request(server, "/\(index)")).text } }
        // A burst of two goes at once; the third holds its slot and waits for its turn, which the clock never brings.
        await eventually("two answered, one waiting for its turn") {
            server.requestCount == 2 && fetcher.load(for: request(server, "/")).active == 1
        }
        time.advance(1)
        var answers: Set<String> = []
        for task in tasks { answers.insert(try await task.value) }
        // A turn later than the request's time limit fails at once, without waiting.
        let hasty = await fetchError { () async throws(FetchError) in
            try await fetcher.fetch(request(server, "/hasty", timeout: .milliseconds(500)))
        }
        await server.stop()
        #expect(answers == ["/0", "/1", "/2"])
        #expect(server.requestCount == 3)
        #expect(hasty?.code == .timeout)
    }

    @Test func aCacheHitTakesNoSlotAndNoRateToken() async throws {
        let server = try await Server.start { _ in .text("kept", headers: [.init("Cache-Control", "max-age=60")]) }
        let stack = FetchingStack(
            upstream: LiveFetcher(policy: testPolicy()),
            limits: HostLimits(requestsPerSecond: 1, burst: 1),
            clock: time.clock
        )
        _ = try await stack.fetch(request(server, "/kept"))
        // The host's only token is spent: a request that had to be sent would fail at once for lack of time.
        let hit = try await stack.fetch(request(server, "/kept", timeout: .milliseconds(100)))
        let sent = await fetchError { () async throws(FetchError) in
            try await stack.fetch(request(server, "/other", timeout: .milliseconds(100)))
        }
        await server.stop()
        #expect(hit.cacheStatus == .hit)
        #expect(sent?.code == .timeout)
        #expect(server.requestCount == 1)
    }
}
