import Foundation
import LinkFetching
import MetricsTestKit
import SwitchyardTestSupport
import Synchronization
import Testing
import WebLinks

/// A host's state kept per host (the circuit of `PoliteFetcher`): which failures take a host for down, that requests
/// to a down host fail at once whatever their URL, one probe at a time with growing intervals, and the metrics.
@Suite struct HostHealthTests {
    let time = TestTime()

    /// An upstream whose answer is decided per call (a status, or an error code), counting the calls per path.
    final class Scripted: LinkFetching {
        indirect enum Answer: Sendable {
            case status(Int)
            case failure(FetchError.Code)
            /// Waits on the test clock for the seconds given, then fails with the code.
            case slowFailure(FetchError.Code, seconds: Int)
            /// Waits at the gate, then answers with the status.
            case held(Gate, status: Int)
            /// Waits at the gate, then answers as the other answer says.
            case heldThen(Gate, Answer)
        }

        let time: TestTime
        let answer: Mutex<Answer>
        let calls = Mutex<[String]>([])
        /// The time limit of each request sent, in order.
        let timeouts = Mutex<[Duration?]>([])

        init(_ answer: Answer, time: TestTime) {
            self.answer = Mutex(answer)
            self.time = time
        }

        var count: Int { calls.withLock { $0.count } }

        func set(_ next: Answer) { answer.withLock { $0 = next } }

        func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
            calls.withLock {
                $0.append(String(request.url.text.split(separator: "/", maxSplits: 2).last.map { "/" + $0 } ?? "/"))
            }
            timeouts.withLock { $0.append(request.timeout) }
            switch answer.withLock({ $0 }) {
            case .status(let status):
                return FetchResponse(url: request.url, status: status)
            case .failure(let code):
                throw FetchError(code, url: request.url.text, message: "failed")
            case .slowFailure(let code, let seconds):
                time.advance(seconds)
                throw FetchError(code, url: request.url.text, message: "failed slowly")
            case .held(let gate, let status):
                await gate.pass()
                gate.leave()
                return FetchResponse(url: request.url, status: status)
            case .heldThen(let gate, let then):
                await gate.pass()
                gate.leave()
                if case .failure(let code) = then { throw FetchError(code, url: request.url.text, message: "failed") }
                return FetchResponse(url: request.url, status: 200)
            }
        }
    }

    func polite(
        _ upstream: Scripted,
        metrics: TestMetrics = TestMetrics(),
        maxHosts: Int = 1024,
        health: HostHealthLimits = HostHealthLimits()
    ) -> PoliteFetcher {
        PoliteFetcher(
            wrapping: upstream,
            limits: HostLimits(requestsPerSecond: 10_000, burst: 10_000, maxHosts: maxHosts, health: health),
            clock: time.clock,
            metrics: FetchMetrics(factory: metrics)
        )
    }

    func get(
        _ fetcher: PoliteFetcher,
        _ path: String,
        host: String = "api.example",
        timeout: Duration? = nil
    ) async -> FetchError? {
        await fetchError { () async throws(FetchError) in
            try await fetcher.fetch(FetchRequest(url: Link(test: "https://\(host)\(path)"), timeout: timeout))
        }
    }

    @Test(arguments: [
        (FetchError.Code.unresolvableHost, true), (.connectionRefused, true), (.connectTimeout, true),
        (.tlsFailure, true), (.timeout, false), (.blockedAddress, false), (.responseTooLarge, false),
        (.offline, false),
    ])
    func anUnreachableHostIsDownAtItsFirstFailureForEveryLinkOfIt(code: FetchError.Code, takenDown: Bool) async {
        let upstream = Scripted(.failure(code), time: time)
        let fetcher = polite(upstream)
        var errors: [FetchError?] = []
        for path in ["/a", "/b", "/c"] { errors.append(await get(fetcher, path)) }
        #expect(errors[0]?.code == code)
        #expect(upstream.count == (takenDown ? 1 : 3), "requests that reached the host")
        #expect(errors[0]?.freshness == (takenDown ? .seconds(1) : nil), "the failure that took it down stands as long")
        if takenDown {
            #expect(errors[1]?.code == .hostDown && errors[2]?.code == .hostDown)
            #expect(errors[2]?.freshness == .seconds(1), "the failure stands until the host may be probed")
            #expect(
                errors[2]?.message.contains("its host 'api.example' is down") == true,
                "\(errors[2]?.message ?? "")"
            )
            // Another host is not affected.
            #expect(await get(fetcher, "/a", host: "other.example")?.code == code)
        } else {
            #expect(errors.allSatisfy { $0?.code == code })
        }
    }

    @Test func troubleTakesAHostDownAfterFiveInARowAndAnAnswerInBetweenResetsTheCount() async {
        let upstream = Scripted(.status(500), time: time)
        let fetcher = polite(upstream)
        for path in ["/1", "/2", "/3", "/4"] { #expect(await get(fetcher, path) == nil, "a 500 is still an answer") }
        upstream.set(.status(404))
        #expect(await get(fetcher, "/fine") == nil)
        upstream.set(.status(503))
        for path in ["/5", "/6", "/7", "/8"] { #expect(await get(fetcher, path) == nil) }
        #expect(upstream.count == 9, "the 404 reset the count: four more were sent")
        #expect(await get(fetcher, "/9") == nil, "the fifth in a row is sent and answered")
        let refused = await get(fetcher, "/10")
        #expect(refused?.code == .hostDown)
        #expect(refused?.message.contains("it answered 503") == true, "\(refused?.message ?? "")")
        #expect(upstream.count == 10)
    }

    @Test func aTimeOutCountsOnlyWhenTheHostHadTimeToAnswer() async {
        let upstream = Scripted(.failure(.timeout), time: time)
        let fetcher = polite(upstream)
        // Time-outs of callers with no time left say nothing about the host.
        for index in 0..<6 { #expect(await get(fetcher, "/quick\(index)")?.code == .timeout) }
        #expect(upstream.count == 6)
        upstream.set(.slowFailure(.timeout, seconds: 1))
        for index in 0..<5 { #expect(await get(fetcher, "/slow\(index)")?.code == .timeout) }
        #expect(await get(fetcher, "/next")?.code == .hostDown)
        #expect(upstream.count == 11)
    }

    @Test func aHostThatAnsweredFastIsGivenItsPatienceAndItsTimeOutsCountEvenUnderTheFairWait() async {
        let upstream = Scripted(.status(200), time: time)
        // The fair wait is longer than the least patience: a time-out after the whole patience still counts.
        let fetcher = polite(
            upstream,
            health: HostHealthLimits(minimumWait: .seconds(3), minimumPatience: .milliseconds(200))
        )
        #expect(await get(fetcher, "/answered") == nil)
        upstream.set(.slowFailure(.timeout, seconds: 1))
        for index in 0..<5 {
            let error = await get(fetcher, "/silent\(index)", timeout: .seconds(5))
            #expect(error?.code == .timeout)
        }
        #expect(upstream.timeouts.withLock { Array($0.dropFirst()) } == Array(repeating: .milliseconds(200), count: 5))
        #expect(await get(fetcher, "/next")?.code == .hostDown, "five time-outs after the whole patience take it down")
        #expect(upstream.count == 6)
    }

    @Test func aTimeOutOfACallerWithLessTimeThanThePatienceSaysNothing() async {
        let upstream = Scripted(.status(200), time: time)
        let fetcher = polite(upstream, health: HostHealthLimits(minimumWait: .seconds(3), minimumPatience: .seconds(2)))
        #expect(await get(fetcher, "/answered") == nil)
        upstream.set(.slowFailure(.timeout, seconds: 1))
        for index in 0..<6 {
            #expect(await get(fetcher, "/hurried\(index)", timeout: .seconds(1))?.code == .timeout)
        }
        #expect(upstream.count == 7, "a caller's own short time limit never takes the host down")
    }

    @Test func aFullHostTableForgetsIdleHostsButNeverOneThatIsDown() async {
        let upstream = Scripted(.failure(.connectionRefused), time: time)
        let fetcher = polite(upstream, maxHosts: 2, health: HostHealthLimits(firstDownTime: .seconds(60)))
        #expect(await get(fetcher, "/", host: "down.example")?.code == .connectionRefused)
        upstream.set(.status(200))
        for index in 0..<6 {
            #expect(await get(fetcher, "/", host: "up\(index).example") == nil)
            time.advance(1)  // its turn passed: nothing to remember of it
        }
        #expect(await get(fetcher, "/again", host: "down.example")?.code == .hostDown, "still remembered as down")
        #expect(upstream.count == 7)
    }

    @Test func aDownHostIsProbedAgainAfterGrowingIntervals() async throws {
        let upstream = Scripted(.failure(.connectionRefused), time: time)
        let metrics = TestMetrics()
        let fetcher = polite(upstream, metrics: metrics)
        #expect(await get(fetcher, "/a")?.code == .connectionRefused)
        #expect(await get(fetcher, "/b")?.freshness == .seconds(1))
        time.advance(1)
        // The first probe fails: down for twice as long.
        #expect(await get(fetcher, "/probe1")?.code == .connectionRefused)
        #expect(await get(fetcher, "/c")?.freshness == .seconds(2))
        time.advance(1)
        #expect(await get(fetcher, "/d")?.code == .hostDown)
        time.advance(1)
        #expect(await get(fetcher, "/probe2")?.code == .connectionRefused)
        #expect(await get(fetcher, "/e")?.freshness == .seconds(4))
        #expect(upstream.calls.withLock { $0 } == ["/a", "/probe1", "/probe2"])
        #expect(try metrics.expectGauge("switchyard_fetch_host_down", [("host", "api.example")]).lastValue == 1)
        #expect(
            try metrics.expectCounter("switchyard_fetch_host_downs_total", [("host", "api.example")]).totalValue == 3
        )
        #expect(try metrics.expectCounter("switchyard_fetch_probes_total", [("host", "api.example")]).totalValue == 2)
        #expect(
            try metrics.expectCounter("switchyard_fetch_down_refused_total", [("host", "api.example")]).totalValue == 4
        )
    }

    @Test func oneProbeAtATimeAndEveryOtherRequestFailsAtOnce() async throws {
        let upstream = Scripted(.failure(.connectionRefused), time: time)
        let fetcher = polite(upstream)
        _ = await get(fetcher, "/a")
        time.advance(1)
        let gate = Gate()
        upstream.set(.held(gate, status: 200))
        let probe = Task { await get(fetcher, "/probe") }
        while gate.arrived < 1 { try await Task.sleep(for: .milliseconds(1)) }
        let during = await get(fetcher, "/during")
        #expect(during?.code == .hostDown)
        #expect(during?.message.contains("it is being tried again") == true, "\(during?.message ?? "")")
        #expect(during?.freshness == nil, "nothing may be kept while the probe is out")
        gate.open()
        #expect(await probe.value == nil, "the probe got an answer: the host is up")
        #expect(await get(fetcher, "/after") == nil)
        #expect(upstream.calls.withLock { $0 } == ["/a", "/probe", "/after"])
    }

    @Test func requestsWaitingForASlotOfAHostThatGoesDownFailAtOnce() async throws {
        let gate = Gate()
        let upstream = Scripted(.heldThen(gate, .failure(.connectionRefused)), time: time)
        let fetcher = PoliteFetcher(
            wrapping: upstream,
            limits: HostLimits(maxConcurrentRequests: 1, requestsPerSecond: 10_000, burst: 10_000),
            clock: time.clock
        )
        let first = Task { await get(fetcher, "/first") }
        while gate.arrived < 1 { try await Task.sleep(for: .milliseconds(1)) }
        let waiting = Task { await get(fetcher, "/waiting") }
        while fetcher.load(for: FetchRequest(url: try Link(test: "https://api.example/w"))).waiting < 1 {
            try await Task.sleep(for: .milliseconds(1))
        }
        gate.open()
        #expect(await first.value?.code == .connectionRefused)
        #expect(await waiting.value?.code == .hostDown, "woken when the host went down, not given the slot")
        #expect(upstream.calls.withLock { $0 } == ["/first"])
    }

    @Test func theHostStateMetricFollowsItDownAndUp() async throws {
        let upstream = Scripted(.failure(.unresolvableHost), time: time)
        let metrics = TestMetrics()
        let fetcher = polite(upstream, metrics: metrics)
        _ = await get(fetcher, "/a")
        let gauge = try metrics.expectGauge("switchyard_fetch_host_down", [("host", "api.example")])
        #expect(gauge.lastValue == 1)
        time.advance(1)
        upstream.set(.status(200))
        #expect(await get(fetcher, "/probe") == nil)
        #expect(gauge.lastValue == 0)
        #expect(await get(fetcher, "/b") == nil)
        #expect(upstream.count == 3)
    }

    @Test func aProbeThatIsNeverSentLetsTheNextRequestProbe() async {
        let upstream = Scripted(.failure(.connectionRefused), time: time)
        let fetcher = polite(upstream)
        _ = await get(fetcher, "/a")
        time.advance(1)
        // A probe cancelled before it is sent says nothing about the host.
        let cancelled = Task { await get(fetcher, "/cancelled") }
        cancelled.cancel()
        _ = await cancelled.value
        upstream.set(.status(200))
        #expect(await get(fetcher, "/next") == nil)
    }
}
