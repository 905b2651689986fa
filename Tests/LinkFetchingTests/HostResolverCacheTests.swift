import Foundation
import LinkFetching
import LinkFetchingHTTP
import SwitchyardTestSupport
import Synchronization
import Testing
import WebLinks

/// The resolver cache: answers kept for a bounded time (names without an address for a shorter one), concurrent
/// lookups of a name made once, callers that stop waiting without stopping the lookup; and the system resolver.
@Suite struct HostResolverCacheTests {
    let time = TestTime()

    /// A resolver answering from a table after waiting at `gate` (when given), counting its lookups.
    func counting(_ lookups: LookupCounter, gate: Gate? = nil) -> HostResolver {
        HostResolver { host throws(FetchError) in
            _ = lookups.next()
            if let gate {
                await gate.pass()
                gate.leave()
            }
            return try await HostResolver.table(["a.example": [.v4(93, 184, 216, 34)]]).resolve(host)
        }
    }

    @Test func anAnswerIsKeptForItsLifetime() async throws {
        let lookups = LookupCounter()
        let cache = HostResolverCache(clock: time.clock)
        let resolver = cache.resolver(over: counting(lookups))
        #expect(try await resolver.resolve("a.example") == [.v4(93, 184, 216, 34)])
        #expect(try await resolver.resolve("A.EXAMPLE") == [.v4(93, 184, 216, 34)], "names in any case are one")
        time.advance(59)
        _ = try await resolver.resolve("a.example")
        #expect(lookups.count == 1)
        time.advance(1)
        _ = try await resolver.resolve("a.example")
        #expect(lookups.count == 2, "asked again once a minute has passed")
    }

    @Test func aNameWithoutAnAddressIsKeptForLess() async throws {
        let lookups = LookupCounter()
        let cache = HostResolverCache(clock: time.clock)
        let resolver = cache.resolver(over: counting(lookups))
        for _ in 0..<3 {
            let error = await fetchError { () async throws(FetchError) in try await resolver.resolve("gone.example") }
            #expect(error?.code == .unresolvableHost)
        }
        #expect(lookups.count == 1)
        time.advance(5)
        _ = await fetchError { () async throws(FetchError) in try await resolver.resolve("gone.example") }
        #expect(lookups.count == 2, "a negative answer lasts 5 s")
    }

    @Test func concurrentLookupsOfOneNameAreMadeOnce() async throws {
        let lookups = LookupCounter()
        let gate = Gate()
        let resolver = HostResolverCache(clock: time.clock).resolver(over: counting(lookups, gate: gate))
        let callers = (0..<16).map { _ in
            Task { () async throws(FetchError) -> [IPAddress] in try await resolver.resolve("a.example") }
        }
        while gate.arrived < 1 { try await Task.sleep(for: .milliseconds(1)) }
        try await Task.sleep(for: .milliseconds(20))
        gate.open()
        for caller in callers { #expect(try await caller.value == [.v4(93, 184, 216, 34)]) }
        #expect(lookups.count == 1)
    }

    @Test func aCallerStopsWaitingWhenCancelledWhileTheLookupGoesOn() async throws {
        let lookups = LookupCounter()
        let gate = Gate()
        let resolver = HostResolverCache(clock: time.clock).resolver(over: counting(lookups, gate: gate))
        let impatient = Task { () async throws(FetchError) -> [IPAddress] in try await resolver.resolve("a.example") }
        while gate.arrived < 1 { try await Task.sleep(for: .milliseconds(1)) }
        impatient.cancel()
        var code: FetchError.Code?
        do { _ = try await impatient.value } catch { code = (error as? FetchError)?.code }
        #expect(code == .timeout)
        gate.open()
        // The lookup finished for nobody, and its answer is kept.
        while (try? await resolver.resolve("a.example")) == nil { try await Task.sleep(for: .milliseconds(1)) }
        #expect(lookups.count == 1)
    }

    @Test(arguments: ["switchyard.invalid", "invalid", "A.B.INVALID", "x.invalid."])
    func namesUnderInvalidNeverResolve(_ host: String) async {
        let clock = ContinuousClock()
        let start = clock.now
        let error = await fetchError { () async throws(FetchError) in try await HostResolver.system.resolve(host) }
        #expect(error?.code == .unresolvableHost)
        #expect(error?.message.contains("RFC 6761") == true)
        #expect(clock.now - start < .milliseconds(100), "answered without asking the system")
    }

    @Test func theSystemResolverResolvesLocalhost() async throws {
        let addresses = try await HostResolver.system.resolve("localhost")
        #expect(addresses.contains { $0 == .v4(127, 0, 0, 1) || $0.description == "::1" })
    }

    @Test func theLiveFetcherKeepsItsResolversAnswers() async throws {
        let server = try await LoopbackHTTPServer.start { request in .text(request.path) }
        let lookups = LookupCounter()
        let resolver = HostResolver { _ throws(FetchError) in
            _ = lookups.next()
            return [.v4(127, 0, 0, 1)]
        }
        let fetcher = LiveFetcher(policy: testPolicy(resolver: resolver))
        for path in ["/a", "/b", "/c"] {
            let response = try await fetcher.fetch(
                FetchRequest(url: Link(test: "http://named.example:\(server.port)\(path)"))
            )
            #expect(response.text == path)
        }
        let uncached = LiveFetcher(policy: testPolicy(resolver: resolver), resolverCache: nil)
        _ = try await uncached.fetch(FetchRequest(url: Link(test: "http://named.example:\(server.port)/d")))
        await server.stop()
        #expect(lookups.count == 2, "one lookup for the cached fetcher's three requests, one for the uncached one")
    }
}
