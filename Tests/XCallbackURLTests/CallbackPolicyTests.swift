import Foundation
import Testing
import XCallbackURL

/// The callback allowlist: forbidden schemes, web hosts, length and nesting, in one policy value.
@Suite struct CallbackPolicyTests {
    func code(_ url: String, _ policy: CallbackPolicy = .standard) -> XCallbackURLError.Code? {
        do {
            try policy.check(url, part: "x-success")
            return nil
        } catch {
            return error.code
        }
    }

    @Test(arguments: [
        "javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,<script>x</script>", "file:///etc/passwd",
        "vbscript:msgbox", "about:blank", "blob:https://a.example/1",
    ])
    func codeAndLocalDataSchemesAreRefusedEvenWhenListed(url: String) {
        #expect(code(url) == .forbiddenCallbackScheme)
        #expect(
            code(url, CallbackPolicy(allowedSchemes: ["javascript", "data", "file", "vbscript", "about", "blob"]))
                == .forbiddenCallbackScheme
        )
    }

    @Test(arguments: ["myapp://done", "myapp://done?x=1&y=2", "x-my-app+v2.1:done", "tel:123"])
    func appSchemesAreAcceptedByDefault(url: String) {
        #expect(code(url) == nil)
    }

    @Test func anAllowedSchemeListNarrowsAppCallbacks() {
        let policy = CallbackPolicy(allowedSchemes: ["MyApp"])
        #expect(code("myapp://done", policy) == nil)
        #expect(code("MYAPP://done", policy) == nil)
        #expect(code("other://done", policy) == .callbackNotAllowed)
    }

    @Test(arguments: [
        ("https://example.com/ok", XCallbackURLError.Code?.none), ("HTTPS://EXAMPLE.COM/ok", nil),
        ("http://example.com:8080/ok?a=1", nil),
        ("https://example.com", nil), ("https://[::1]/ok", nil),
        ("https://evil.example/collect?", .callbackNotAllowed),
        ("https://example.com.evil.example/", .callbackNotAllowed),
        ("https://example.com:x@evil.example/", .callbackNotAllowed),
        ("https://example.com@evil.example/", .callbackNotAllowed),
        ("https://evil.example\\@example.com/", .callbackNotAllowed), ("https:example.com/ok", .callbackNotAllowed),
        ("https:///example.com/ok", .callbackNotAllowed),
    ])
    func webCallbacksNeedAnAllowedHostThatCannotBeDisguised(url: String, expected: XCallbackURLError.Code?) {
        let policy = CallbackPolicy(allowedWebHosts: ["Example.com", "[::1]"])
        #expect(code(url, policy) == expected, "\(url)")
    }

    @Test func webCallbacksAreRefusedByDefault() {
        #expect(code("https://example.com/ok") == .callbackNotAllowed)
        #expect(code("http://127.0.0.1/ok") == .callbackNotAllowed)
    }

    @Test(arguments: ["", " myapp://x", "not a url", "://x", "my app://x", "myapp://ok\r\nx", "1app://x"])
    func thingsThatAreNotAbsoluteURLsAreMalformed(url: String) {
        #expect(code(url) == .malformedCallback)
    }

    @Test func lengthIsBoundedInBytes() {
        let policy = CallbackPolicy(maximumLength: 20)
        #expect(code("myapp://" + String(repeating: "a", count: 12), policy) == nil)
        #expect(code("myapp://" + String(repeating: "a", count: 13), policy) == .tooLong)
        #expect(code("myapp://" + String(repeating: "é", count: 7), policy) == .tooLong)
        #expect(code("myapp://" + String(repeating: "a", count: 102_400)) == .tooLong)
    }

    @Test func nestedCallbacksAreCheckedOneDecodePerLevel() throws {
        // Level 2 smuggles javascript: inside an x-callback-url callback.
        let smuggled = try XCallbackRequest(scheme: "b", action: "x", success: "b://ok").url()
            .replacingOccurrences(of: "b%3A%2F%2Fok", with: "javascript%3Aalert(1)")
        #expect(code(smuggled) == .forbiddenCallbackScheme)
        // Double-encoded: decodes once to text that only looks like a scheme after a second decode.
        #expect(code("a://x-callback-url/x?x-success=javascript%253Aalert(1)") == .malformedCallback)
        // A web callback two levels down obeys the same host rule.
        #expect(code("a://x-callback-url/x?x-error=https%3A%2F%2Fevil.example%2F") == .callbackNotAllowed)
        // An ordinary app URL whose query mentions x-success is not an x-callback-url and is left alone.
        #expect(code("a://other/x?x-success=javascript%3Aalert(1)") == nil)
    }

    @Test func nestingDeeperThanTheLimitIsRefused() throws {
        var url = "z://done"
        for (index, scheme) in ["d", "c", "b"].enumerated() {
            url = try XCallbackRequest(scheme: scheme, action: "step\(index)", success: url).url()
        }
        // url is b → c → d → z: three callback levels below a request that names it as x-success.
        #expect(code(url) == .tooDeep)
        #expect(code(url, CallbackPolicy(maximumNestingDepth: 4)) == nil)
        let oneLevel = CallbackPolicy(maximumNestingDepth: 1)
        #expect(code("z://done", oneLevel) == nil)
        #expect(code(try XCallbackRequest(scheme: "c", action: "x", success: "z://ok").url(), oneLevel) == .tooDeep)
    }

    @Test func buildingChecksCallbacksWithThePolicyToo() throws {
        let request = try XCallbackRequest(scheme: "app", action: "do", success: "https://example.com/ok")
        #expect(throws: XCallbackURLError.self) { try request.url() }
        #expect(
            try request.url(policy: CallbackPolicy(allowedWebHosts: ["example.com"])).contains(
                "x-success=https%3A%2F%2Fexample.com%2Fok"
            )
        )
        let unsafe = try XCallbackRequest(scheme: "app", action: "do", cancel: "javascript:alert(1)")
        #expect(
            throws: XCallbackURLError(
                .forbiddenCallbackScheme,
                part: "x-cancel",
                "callbacks with the scheme \"javascript:\" are refused because they could run code or read local data"
            )
        ) {
            try unsafe.url()
        }
    }
}
