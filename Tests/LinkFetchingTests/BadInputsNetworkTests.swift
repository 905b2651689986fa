import Foundation
import LinkFetching
import LinkFetchingHTTP
import SwitchyardTestSupport
import Testing
import WebLinks

/// One `area: "network"` case of `../shared/data/bad-inputs.json`, read at test time.
struct NetworkBadInput {
    let id: String
    let input: Any
    let outcome: String
    let code: FetchError.Code?
    let expect: [String: Any]

    static func load(_ id: String) throws -> NetworkBadInput {
        let root = try JSONSerialization.jsonObject(with: SharedData.data("bad-inputs.json")) as? [String: Any]
        let cases = root?["cases"] as? [[String: Any]] ?? []
        let entry = try #require(
            cases.first { $0["id"] as? String == id },
            "case \(id) is missing from bad-inputs.json"
        )
        #expect(entry["area"] as? String == "network")
        let expect = entry["expect"] as? [String: Any] ?? [:]
        let codes: [String: FetchError.Code] = [
            "E_SSRF_BLOCKED": .blockedAddress, "E_TOO_MANY_REDIRECTS": .tooManyRedirects, "E_SCHEME": .forbiddenScheme,
            "E_RESPONSE_TOO_LARGE": .responseTooLarge, "E_PORT": .forbiddenPort, "E_BAD_LOCATION": .badLocation,
        ]
        return NetworkBadInput(
            id: id,
            input: entry["input"] ?? NSNull(),
            outcome: expect["outcome"] as? String ?? "",
            code: (expect["code"] as? String).flatMap { codes[$0] },
            expect: expect
        )
    }

    var strings: [String] {
        if let text = input as? String { return [text] }
        return input as? [String] ?? []
    }

    func field(_ name: String) -> Any? { (input as? [String: Any])?[name] }

    func list(_ name: String) -> [String] {
        if let text = field(name) as? String { return [text] }
        return field(name) as? [String] ?? []
    }

    func number(_ name: String) -> Int? { (field(name) as? NSNumber)?.intValue }
}

@Suite(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
struct BadInputsNetworkTests {
    @Test(arguments: ["N02", "N03", "N05", "N06", "N08", "N09", "N11", "N12", "N14", "N15", "N17", "N18"])
    func networkCaseGetsItsOutcome(_ id: String) async throws {
        let bad = try NetworkBadInput.load(id)
        switch id {
        case "N02", "N03", "N15": try await refusesURLs(bad)
        case "N05", "N06": try await refusesNamesResolvingPrivately(bad)
        case "N08": try await stopsLongChains(bad)
        case "N09": try await stopsHostileRedirects(bad)
        case "N11": try await resolvesThenValidates(bad)
        case "N12", "N14": try await abortsLargeBodies(bad)
        case "N17": try await retriesHeadWithGet(bad)
        case "N18": try refusesBadLocations(bad)
        default: Issue.record("no scenario for \(id)")
        }
    }

    /// URLs refused by the default policy before anything is sent; the ports case never even resolves.
    private func refusesURLs(_ bad: NetworkBadInput) async throws {
        let urls = bad.strings
        #expect(!urls.isEmpty)
        let lookups = LookupCounter()
        let counting = HostResolver { host throws(FetchError) in
            _ = lookups.next()
            return try await HostResolver.system.resolve(host)
        }
        for url in urls {
            let error = await fetchError { () async throws(FetchError) in
                try await LiveFetcher(policy: NetworkPolicy(resolver: counting)).fetch(
                    FetchRequest(url: Link(test: url))
                )
            }
            #expect(error?.code == bad.code, "\(bad.id) \(url): \(error?.message ?? "fetched")")
        }
        if bad.code == .forbiddenPort { #expect(lookups.count == 0) }
    }

    /// A public-looking name that resolves privately is blocked; the connection goes to the checked address.
    private func refusesNamesResolvingPrivately(_ bad: NetworkBadInput) async throws {
        let url = try #require(bad.strings.first)
        let host = try #require(URL(string: url)?.host)
        let lookups = LookupCounter()
        let rebinding = HostResolver { _ throws(FetchError) in
            // A rebinding DNS server: private on the first answer, then anything else on later ones.
            lookups.next() == 1 ? [.v4(10, 0, 0, 5)] : [.v4(93, 184, 216, 34)]
        }
        let error = await fetchError { () async throws(FetchError) in
            try await LiveFetcher(policy: NetworkPolicy(resolver: rebinding)).fetch(FetchRequest(url: Link(test: url)))
        }
        #expect(error?.code == bad.code, "\(bad.id): \(error?.message ?? "fetched")")
        #expect(lookups.count == 1, "one resolution per hop, and it is the one that was checked")

        // The other half of rebinding: the first (checked) answer is where the connection goes.
        let server = try await Server.start { _ in .text("checked address") }
        let pinned = LookupCounter()
        let flipping = HostResolver { _ throws(FetchError) in
            pinned.next() == 1 ? [.v4(127, 0, 0, 1)] : [.v4(127, 0, 0, 2)]
        }
        let response = try await LiveFetcher(policy: NetworkPolicy(allowPrivateAddresses: true, resolver: flipping))
            .fetch(FetchRequest(url: Link(test: "http://\(host):\(server.port)/")))
        await server.stop()
        #expect(response.text == "checked address")
        #expect(pinned.count == 1)
    }

    private func stopsLongChains(_ bad: NetworkBadInput) async throws {
        let length = try #require(bad.number("chain_length"))
        let limit = (bad.expect["limit_suggested"] as? NSNumber)?.intValue ?? 5
        let server = try await Server.start { request in
            let hop = Int(request.path.dropFirst()) ?? 0
            return hop < length ? .redirect(to: "/\(hop + 1)") : .text("end")
        }
        let policy = NetworkPolicy(allowPrivateAddresses: true)
        // The one redirect layer, over the stack as the resolver and the server build it, and hop by hop.
        let stack = FetchingStack(upstream: LiveFetcher(policy: policy), cache: nil, limits: nil, maxRedirects: limit)
        let error = await fetchError { () async throws(FetchError) in
            try await stack.fetch(FetchRequest(url: Link(test: server.url("/0"))))
        }
        let followerError = await fetchError { () async throws(FetchError) in
            try await RedirectFollower(wrapping: LiveFetcher(policy: policy), maxHops: limit).follow(
                Link(test: server.url("/0")),
                deadline: .now + .seconds(30)
            )
        }
        await server.stop()
        #expect(error?.code == bad.code)
        #expect(followerError?.code == bad.code)
        #expect(server.requestCount == 2 * (limit + 1))
    }

    private func stopsHostileRedirects(_ bad: NetworkBadInput) async throws {
        let locations = bad.list("Location")
        #expect(locations.count >= 3)
        for location in locations {
            let server = try await Server.start { _ in .redirect(to: location) }
            let error = await fetchError { () async throws(FetchError) in
                try await RedirectFollower(wrapping: LiveFetcher(policy: testPolicy()))
                    .fetch(FetchRequest(url: Link(test: server.url("/"))))
            }
            await server.stop()
            #expect(error?.code == bad.code, "\(location): \(error?.message ?? "followed")")
        }
    }

    private func resolvesThenValidates(_ bad: NetworkBadInput) async throws {
        let base = try #require(bad.field("url") as? String)
        var resolved: [String] = []
        for location in bad.list("Location") {
            resolved.append(try RedirectFollower.location(location, from: Link(test: base)).text)
        }
        #expect(resolved == ["https://a.example/x", "https://evil.example/x", "https://a.example/y"])
        // Validated as a new hop: the scheme-relative one now names another host, which is what gets checked.
        let evil = HostResolver.table(["evil.example": [.v4(10, 0, 0, 5)], "a.example": [.v4(93, 184, 216, 34)]])
        let hostChange = await fetchError { () async throws(FetchError) in
            let policy = NetworkPolicy(resolver: evil)
            return try await policy.address(for: policy.check(url: Link(test: resolved[1])))
        }
        #expect(hostChange?.code == .blockedAddress)

        // And live: a scheme-relative Location is followed to the host it names.
        let server = try await Server.start { request in
            request.path == "/p"
                ? .redirect(to: "//localhost:\(request.header("Host")?.split(separator: ":").last ?? "")/x")
                : .text(request.path)
        }
        let response = try await RedirectFollower(wrapping: LiveFetcher(policy: testPolicy())).fetch(
            FetchRequest(url: Link(test: server.url("/p")))
        )
        await server.stop()
        #expect(response.url.text == "http://localhost:\(server.port)/x")
        #expect(response.text == "/x")
    }

    private func abortsLargeBodies(_ bad: NetworkBadInput) async throws {
        let limit = (bad.expect["limit_suggested_bytes"] as? NSNumber)?.intValue ?? 2 * 1024 * 1024
        let body: LoopbackHTTPServer.Response
        if let plain = bad.number("body_bytes") {
            let chunk = [UInt8](repeating: 0x61, count: 64 * 1024)
            body = Response(body: .repeated(chunk: chunk, count: plain / chunk.count))
        } else {
            // The case describes 10 GB decoded; four times the limit is enough to prove the decoded size is
            // what counts (and builds in milliseconds).
            let decoded = min(try #require(bad.number("decoded_bytes")), 4 * limit)
            body = Response(headers: [.init("Content-Encoding", "gzip")], body: .bytes(GzipZeros.make(count: decoded)))
        }
        let server = try await Server.start { _ in body }
        let clock = ContinuousClock()
        let start = clock.now
        let error = await fetchError { () async throws(FetchError) in
            try await LiveFetcher(policy: testPolicy(maxBodyBytes: limit)).fetch(
                FetchRequest(url: Link(test: server.url("/")))
            )
        }
        let elapsed = clock.now - start
        await server.stop()
        #expect(error?.code == bad.code, "\(bad.id): \(error?.message ?? "read it all")")
        #expect(elapsed < .seconds(5), "the read stopped early (\(elapsed))")
    }

    private func retriesHeadWithGet(_ bad: NetworkBadInput) async throws {
        let status = try #require(bad.number("status_for_HEAD"))
        #expect(bad.outcome == "retry_with_GET")
        let server = try await Server.start { request in
            if request.method == "HEAD" { return Response(status: status) }
            return request.path == "/s" ? .redirect(to: "/final", status: 301) : .text("final")
        }
        let resolution = try await RedirectFollower(wrapping: LiveFetcher(policy: testPolicy())).follow(
            Link(test: server.url("/s")),
            deadline: .now + .seconds(30)
        )
        await server.stop()
        #expect(resolution.final.text == server.url("/final"))
        #expect(server.requests.map(\.method) == ["HEAD", "GET", "HEAD", "GET"])
    }

    /// A CR/LF inside one Location value cannot cross the wire intact (it would end the header line), so the
    /// check on the value itself is what is tested; raw non-ASCII is tested live in LiveFetcherTests.
    private func refusesBadLocations(_ bad: NetworkBadInput) throws {
        for location in bad.list("Location") {
            #expect(throws: FetchError.self) {
                try RedirectFollower.location(location, from: Link(test: "http://a.example/p")).text
            }
            do {
                _ = try RedirectFollower.location(location, from: Link(test: "http://a.example/p")).text
            } catch {
                #expect(error.code == bad.code)
            }
        }
    }
}
