import LinkFetching
import Testing

@Suite struct NetworkPolicyTests {
    let policy = NetworkPolicy()

    @Test(arguments: [
        ("ftp://example.com/", FetchError.Code.forbiddenScheme),
        ("file:///etc/passwd", .forbiddenScheme),
        ("javascript:alert(1)", .forbiddenScheme),
        ("http://example.com:6379/", .forbiddenPort),
        ("http://example.com:25/", .forbiddenPort),
        ("https://example.com:99999/", .invalidURL),
        ("http://exa mple.com/", .invalidURL),
        ("http://example.com/\r\nX: y", .invalidURL),
        ("not a url", .invalidURL),
        ("/relative/path", .invalidURL),
        ("http:///nohost", .invalidURL),
    ])
    func refusesBadURLsBeforeResolving(_ url: String, _ code: FetchError.Code) {
        #expect(throws: FetchError.self) { try policy.check(url: url) }
        do {
            _ = try policy.check(url: url)
        } catch {
            #expect(error.code == code, "\(url): \(error.message)")
            #expect(error.message.contains("'"), "message should quote the value: \(error.message)")
        }
    }

    @Test func acceptsDefaultPortsAndAnyPortWhenPrivateAllowed() throws {
        #expect(try policy.check(url: "https://Example.com/a").port == 443)
        #expect(try policy.check(url: "http://[::1]/").host == "::1")
        #expect(try NetworkPolicy.loopback.check(url: "http://127.0.0.1:8080/").port == 8080)
    }

    @Test(arguments: [
        ("/x", "https://a.example/x"),
        ("//evil.example/x", "https://evil.example/x"),
        ("../y", "https://a.example/y"),
        ("y?q=1", "https://a.example/y?q=1"),
        ("HTTP://B.example/", "HTTP://B.example/"),
    ])
    func resolvesRelativeLocations(_ location: String, _ expected: String) throws {
        #expect(try policy.resolve(location: location, from: "https://a.example/p") == expected)
    }

    @Test(arguments: [
        ("http://a.example/\r\nSet-Cookie: x=1", FetchError.Code.badLocation),
        ("http://a.example/\nx", .badLocation),
        ("http://a.example/ü", .badLocation),
        ("", .badLocation),
        ("file:///etc/passwd", .forbiddenScheme),
        ("gopher://127.0.0.1:6379/_INFO", .forbiddenScheme),
        ("javascript:alert(1)", .forbiddenScheme),
        ("myapp://open", .forbiddenScheme),
    ])
    func refusesHostileLocations(_ location: String, _ code: FetchError.Code) {
        do {
            let resolved = try policy.resolve(location: location, from: "http://a.example/p")
            Issue.record("accepted \(location.debugDescription) as \(resolved)")
        } catch {
            #expect(error.code == code, "\(location.debugDescription): \(error.message)")
            #expect(error.message.contains("http://a.example/p"), "message names the hop: \(error.message)")
        }
    }

    @Test func blocksNamesResolvingPrivatelyAndReturnsTheCheckedAddress() async throws {
        let resolver = HostResolver.table([
            "private.example": [.v4(10, 0, 0, 5)],
            "mixed.example": [.v4(93, 184, 216, 34), .v4(127, 0, 0, 1)],
            "public.example": [.v4(93, 184, 216, 34)],
        ])
        let strict = NetworkPolicy(resolver: resolver)
        let blocked = await fetchError { () async throws(FetchError) in
            try await strict.address(for: strict.check(url: "http://private.example/"))
        }
        #expect(blocked?.code == .blockedAddress)
        #expect(blocked?.message.contains("10.0.0.5") == true)
        let mixed = await fetchError { () async throws(FetchError) in
            try await strict.address(for: strict.check(url: "http://mixed.example/"))
        }
        #expect(mixed?.code == .blockedAddress)
        let address = try await strict.address(for: strict.check(url: "http://public.example/"))
        #expect(address == .v4(93, 184, 216, 34))
        let unknown = await fetchError { () async throws(FetchError) in
            try await strict.address(for: strict.check(url: "http://nowhere.example/"))
        }
        #expect(unknown?.code == .unresolvableHost)
    }
}
