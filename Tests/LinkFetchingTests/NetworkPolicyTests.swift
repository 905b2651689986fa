import LinkFetching
import SwitchyardTestSupport
import Testing
import WebLinks

@Suite struct NetworkPolicyTests {
    let policy = NetworkPolicy()

    /// Ports outside the policy are refused by the policy; every other bad URL is refused before, by the one link
    /// parser a request's URL comes from.
    @Test(arguments: [("http://example.com:6379/", 6379), ("http://example.com:25/", 25)])
    func refusesPortsOutsideThePolicy(_ url: String, _ port: Int) {
        do {
            _ = try policy.check(url: Link(test: url))
            Issue.record("\(url) was accepted")
        } catch {
            #expect(error.code == .forbiddenPort)
            #expect(error.message.contains("\(port)"), "\(error.message)")
        }
    }

    /// The port rule is said with what lifts it: the ports fetched, and the option that allows any port.
    @Test(arguments: [
        (
            NetworkPolicy(), "http://127.0.0.1:18440/rules.json",
            "The port 18440 of 'http://127.0.0.1:18440/rules.json' is refused: only ports 80 and 443 are fetched unless private addresses are allowed (--allow-private-addresses)."
        ),
        (
            NetworkPolicy(allowedPorts: [443]), "http://example.com/",
            "The port 80 of 'http://example.com/' is refused: only port 443 is fetched unless private addresses are allowed (--allow-private-addresses)."
        ),
    ])
    func aRefusedPortNamesTheRuleAndTheOptionThatLiftsIt(policy: NetworkPolicy, url: String, message: String) {
        let error = #expect(throws: FetchError.self) { try policy.check(url: Link(test: url)) }
        #expect(error?.message == message)
    }

    @Test(arguments: [
        ("ftp://example.com/", LinkError.Code.notWebLink),
        ("file:///etc/passwd", .notWebLink),
        ("javascript:alert(1)", .notWebLink),
        ("https://example.com:99999/", .badPort),
        ("http://exa mple.com/", .badHost),
        ("http://example.com/\r\nX: y", .controlCharacter),
        ("not a url", .notAbsolute),
        ("/relative/path", .notAbsolute),
        ("http:///nohost", .notAbsolute),
    ])
    func badURLsNeverBecomeRequests(_ url: String, _ code: LinkError.Code) {
        let error = #expect(throws: LinkError.self) { try Link(url) }
        #expect(error?.code == code, "\(url): \(String(describing: error))")
    }

    @Test func acceptsDefaultPortsAndAnyPortWhenPrivateAllowed() throws {
        #expect(try policy.check(url: Link(test: "https://Example.com/a")).port == 443)
        #expect(try policy.check(url: Link(test: "http://[::1]/")).host == "::1")
        #expect(try NetworkPolicy.loopback.check(url: Link(test: "http://127.0.0.1:8080/")).port == 8080)
    }

    @Test(arguments: [
        ("/x", "https://a.example/x"),
        ("//evil.example/x", "https://evil.example/x"),
        ("../y", "https://a.example/y"),
        ("y?q=1", "https://a.example/y?q=1"),
        ("HTTP://B.example/", "http://b.example/"),
        // Raw non-ASCII is read as Foundation's URL encodes it, which is what goes on the wire.
        ("http://a.example/ü", "http://a.example/%C3%BC"),
    ])
    func resolvesRelativeLocations(_ location: String, _ expected: String) throws {
        #expect(try RedirectFollower.location(location, from: Link(test: "https://a.example/p")).text == expected)
    }

    @Test(arguments: [
        ("http://a.example/\r\nSet-Cookie: x=1", FetchError.Code.badLocation),
        ("http://a.example/\nx", .badLocation),
        ("", .badLocation),
        ("file:///etc/passwd", .forbiddenScheme),
        ("gopher://127.0.0.1:6379/_INFO", .forbiddenScheme),
        ("javascript:alert(1)", .forbiddenScheme),
        ("myapp://open", .forbiddenScheme),
    ])
    func refusesHostileLocations(_ location: String, _ code: FetchError.Code) {
        do {
            let resolved = try RedirectFollower.location(location, from: Link(test: "http://a.example/p")).text
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
            try await strict.address(for: strict.check(url: Link(test: "http://private.example/")))
        }
        #expect(blocked?.code == .blockedAddress)
        #expect(blocked?.message.contains("10.0.0.5") == true)
        let mixed = await fetchError { () async throws(FetchError) in
            try await strict.address(for: strict.check(url: Link(test: "http://mixed.example/")))
        }
        #expect(mixed?.code == .blockedAddress)
        let address = try await strict.address(for: strict.check(url: Link(test: "http://public.example/")))
        #expect(address == .v4(93, 184, 216, 34))
        let unknown = await fetchError { () async throws(FetchError) in
            try await strict.address(for: strict.check(url: Link(test: "http://nowhere.example/")))
        }
        #expect(unknown?.code == .unresolvableHost)
    }
}

@Suite struct FetchErrorIdentifierTests {
    /// Each code's identifier is its words in capitals; an acronym is one word, not a letter each.
    @Test(arguments: [
        (FetchError.Code.invalidURL, "E_INVALID_URL"),
        (.redirectLoop, "E_REDIRECT_LOOP"),
        (.tooManyRedirects, "E_TOO_MANY_REDIRECTS"),
        (.httpStatus, "E_HTTP_STATUS"),
        (.blockedAddress, "E_SSRF_BLOCKED"),
        (.offline, "E_OFFLINE"),
    ])
    func identifiersAreTheCodesWordsInCapitals(_ code: FetchError.Code, identifier: String) {
        #expect(FetchError(code, url: "https://x.example/", message: "m").identifier == identifier)
    }
}
