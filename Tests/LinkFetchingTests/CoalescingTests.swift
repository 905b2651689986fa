import Foundation
import LinkFetching
import LinkFetchingHTTP
import MetricsTestKit
import SwitchyardTestSupport
import Synchronization
import Testing
import WebLinks

/// Identical requests in flight are sent once (CoalescingFetcher), and once per resolution (ResolutionScope).
@Suite struct CoalescingTests {
    let time = TestTime()

    @Test func concurrentIdenticalRequestsSendOne() async throws {
        let gate = Gate()
        let server = try await Server.start { _ in
            await gate.pass()
            defer { gate.leave() }
            return .text("shared", headers: [.init("Cache-Control", "no-store")])
        }
        let fetcher = CoalescingFetcher(wrapping: LiveFetcher(policy: testPolicy()), clock: time.clock)
        let url = request(server, "/song")
        let callers = (0..<5).map { _ in Task { try await fetcher.fetch(url) } }
        await eventually("five callers wait for one request") { gate.arrived == 1 && fetcher.waiting(for: url) == 5 }
        gate.open()
        for caller in callers { #expect(try await caller.value.text == "shared") }
        let other = try await fetcher.fetch(request(server, "/song", headers: [("Accept", "text/plain")]))
        await server.stop()
        #expect(other.text == "shared")
        #expect(server.requestCount == 2, "one for the five, one for the request with another header")
    }

    @Test func aCancelledCallerDoesNotFailTheOthers() async throws {
        let gate = Gate()
        let server = try await Server.start { _ in
            await gate.pass()
            defer { gate.leave() }
            return .text("answer")
        }
        let fetcher = CoalescingFetcher(wrapping: LiveFetcher(policy: testPolicy()), clock: time.clock)
        let url = request(server, "/x")
        let starter = Task { try await fetcher.fetch(url) }
        await eventually("the request reached the server") { gate.arrived == 1 }
        let joiners = (0..<2).map { _ in Task { try await fetcher.fetch(url) } }
        await eventually("three callers wait") { fetcher.waiting(for: url) == 3 }
        starter.cancel()
        await eventually("the cancelled caller left") { fetcher.waiting(for: url) == 2 }
        gate.open()
        for joiner in joiners { #expect(try await joiner.value.text == "answer") }
        let cancelled = await starter.result
        await server.stop()
        #expect(failureCode(cancelled) == .timeout, "a cancelled caller is told it was cancelled")
        #expect(server.requestCount == 1)
    }

    @Test func aCallerStopsWaitingAtItsOwnTimeLimit() async throws {
        let gate = Gate()
        let server = try await Server.start { _ in
            await gate.pass()
            defer { gate.leave() }
            return .text("late")
        }
        let fetcher = CoalescingFetcher(wrapping: LiveFetcher(policy: testPolicy()), clock: time.clock)
        let patient = Task { try await fetcher.fetch(request(server, "/x")) }
        await eventually("the request reached the server") { gate.arrived == 1 }
        let hasty = Task { try await fetcher.fetch(request(server, "/x", timeout: .seconds(2))) }
        await eventually("both wait") { fetcher.waiting(for: request(server, "/x")) == 2 }
        time.advance(3)
        let error = await hasty.result
        gate.open()
        let answer = try await patient.value
        await server.stop()
        #expect(failureCode(error) == .timeout)
        #expect(answer.text == "late")
        #expect(server.requestCount == 1)
    }

    @Test func aJoinerWithMoreTimeAsksAgainWhenTheFlightRunsOutOfTime() async throws {
        let gate = Gate()
        let server = try await Server.start { _ in
            await gate.pass()
            defer { gate.leave() }
            return .text("patient answer")
        }
        let fetcher = CoalescingFetcher(wrapping: LiveFetcher(policy: testPolicy()), clock: time.clock)
        // Real time: the live fetcher enforces the limit; two seconds leave the patient caller ample time to join.
        let hasty = Task { try await fetcher.fetch(request(server, "/x", timeout: .seconds(2))) }
        await eventually("the hasty request reached the server") { gate.arrived == 1 }
        let patient = Task { try await fetcher.fetch(request(server, "/x")) }
        await eventually("the patient caller joined") { fetcher.waiting(for: request(server, "/x")) == 2 }
        let hastyOutcome = await hasty.result
        await eventually("the patient caller asked again") { gate.arrived == 2 }
        gate.open()
        let answer = try await patient.value
        await server.stop()
        #expect(failureCode(hastyOutcome) == .timeout)
        #expect(answer.text == "patient answer")
    }

    @Test func aResolutionScopeMakesEachRequestOnceEvenWhenNoStore() async throws {
        let server = try await Server.start { request in
            .text("for \(request.path)", headers: [.init("Cache-Control", "no-store")])
        }
        let stack = FetchingStack(upstream: LiveFetcher(policy: testPolicy()), clock: time.clock)
        let scope = stack.scope()
        // Eight scripts of one resolution ask for the same URL, one after the other and concurrently.
        var answers: [String] = []
        for _ in 0..<4 { answers.append(try await scope.fetch(request(server, "/api")).text) }
        let concurrent = (0..<4).map { _ in Task { try await scope.fetch(request(server, "/api")).text } }
        for task in concurrent { answers.append(try await task.value) }
        let other = try await scope.fetch(request(server, "/other"))
        // The next resolution asks again: no-store may not be kept beyond one resolution.
        let next = try await stack.scope().fetch(request(server, "/api"))
        await server.stop()
        #expect(answers == Array(repeating: "for /api", count: 8))
        #expect(other.text == "for /other")
        #expect(next.freshness == nil)
        #expect(server.requestCount == 3)
    }

    @Test func aScopeSharesAFailureInsteadOfAskingAgain() async throws {
        let server = try await Server.start { _ in .text("unused") }
        let url = request(server, "/gone")
        await server.stop()
        let scope = ResolutionScope(wrapping: LiveFetcher(policy: testPolicy()), clock: time.clock)
        let first = await fetchError { () async throws(FetchError) in try await scope.fetch(url) }
        let second = await fetchError { () async throws(FetchError) in try await scope.fetch(url) }
        #expect(first?.code == .connectionRefused)
        #expect(second == first)
    }

    @Test func threeResolutionsOfACacheableAnswerSendOneRequest() async throws {
        let server = try await Server.start { [time] _ in
            .text("{}", headers: [.init("Cache-Control", "max-age=300"), .init("Date", time.httpDate)])
        }
        let metrics = TestMetrics()
        let stack = FetchingStack(
            upstream: LiveFetcher(policy: testPolicy()),
            clock: time.clock,
            metrics: FetchMetrics(factory: metrics)
        )
        var freshness: [Duration?] = []
        for _ in 0..<3 {
            let scope = stack.scope()
            let scripts = (0..<8).map { _ in Task { try await scope.fetch(request(server, "/v1-alpha.1/links")) } }
            for script in scripts { freshness.append(try await script.value.freshness) }
            time.advance(10)
        }
        await server.stop()
        #expect(server.requestCount == 1, "24 script requests, one upstream request")
        #expect(freshness.prefix(8).allSatisfy { $0 == .seconds(300) })
        #expect(freshness.suffix(8).allSatisfy { $0 == .seconds(280) })
        // Each resolution asks the stack once; the other seven scripts join it, and are not counted as requests.
        let host = [("host", FetchMetrics.host(of: request(server, "/").url))]
        func total(_ label: String, _ extra: [(String, String)] = []) -> Int64 {
            metrics.counterTotal(label: label, dimensions: host + extra)
        }
        #expect(total("switchyard_fetch_requests_total") == 1)
        #expect(total("switchyard_fetch_responses_total", [("class", "2xx")]) == 1)
        #expect(total("switchyard_fetch_coalesced_total") == 21)
        #expect(total("switchyard_fetch_cache_total", [("status", "miss")]) == 1)
        #expect(total("switchyard_fetch_cache_total", [("status", "hit")]) == 2)
        #expect(try metrics.expectGauge("switchyard_fetch_in_flight", host).lastValue == 0)
    }
}
