import Testing
import WebLinks

/// Text without a scheme (issue 30 item 9): refused with `E_NOT_ABSOLUTE`, and when it reads as a host followed by an
/// optional path, query or fragment, the refusal suggests the `https://` link, in its message and as a value.
@Suite struct MissingSchemeTests {
    @Test func aHostAndAPathGetTheHTTPSLink() {
        #expect(
            throws: LinkError(
                code: .notAbsolute,
                message:
                    "\"twitter.com/jack/status/20\" is not an absolute URL: it needs a scheme such as https; did you mean \"https://twitter.com/jack/status/20\"?",
                suggestion: "https://twitter.com/jack/status/20"
            )
        ) { try Link("twitter.com/jack/status/20") }
    }

    @Test(arguments: [
        ("www.youtube.com/watch?v=dQw4w9WgXcQ", "https://www.youtube.com/watch?v=dQw4w9WgXcQ"),
        ("  Example.COM  ", "https://Example.COM"),
        ("example.com.", "https://example.com."),
        ("example.com#top", "https://example.com#top"),
        ("bücher.example/straße", "https://bücher.example/straße"),
        ("xn--bcher-kva.example/x", "https://xn--bcher-kva.example/x"),
        ("news.xn--p1ai/a", "https://news.xn--p1ai/a"),
        ("192.168.0.1/admin", "https://192.168.0.1/admin"),
        ("[::1]/x", "https://[::1]/x"),
        // Scheme-relative: the host is there, only the scheme is missing.
        ("//twitter.com/jack", "https://twitter.com/jack"),
        ("twitter.com/jack:1", "https://twitter.com/jack:1"),
    ])
    func suggestsTheHTTPSLink(text: String, suggestion: String) throws {
        let error = try #require(#expect(throws: LinkError.self) { try Link(text) })
        #expect(error.code == .notAbsolute)
        #expect(error.suggestion == suggestion)
        #expect(error.message.hasSuffix("did you mean \"\(suggestion)\"?"), "\(error.message)")
        // The suggestion is a link.
        _ = try Link(suggestion)
    }

    /// No suggestion where the text does not read as a host and a path, or the link would be refused anyway.
    @Test(arguments: [
        "not a url", "twitter", "jack/status/20", "/relative/path", "1.5", "e.g.", "a..example/x", ".example.com",
        "twitter.com/jack and more", "user@twitter.com/x", "%74witter.com/x", "999.1.1.1/x", "xn--a.example/x",
        "[::1/x", "http:/a.example/x",
    ])
    func suggestsNothingElse(text: String) {
        let error = #expect(throws: LinkError.self) { try Link(text) }
        #expect(error?.code == .notAbsolute)
        #expect(error?.suggestion == nil)
        #expect(error?.message.contains("did you mean") == false, "\(String(describing: error))")
    }

    /// A host with a port reads as a scheme (`example.com:` is one), so that text is not a web link, without a
    /// suggestion.
    @Test func aHostWithAPortIsAnotherScheme() {
        let error = #expect(throws: LinkError.self) { try Link("example.com:8080/x") }
        #expect(error?.code == .notWebLink)
        #expect(error?.suggestion == nil)
    }
}
