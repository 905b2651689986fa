import Testing
import XCallbackURL

/// The URLs a receiving app opens: success with results, error with code and message, cancel.
@Suite struct XCallbackResponseTests {
    let request: XCallbackRequest

    init() throws {
        request = try XCallbackRequest(
            scheme: "app",
            action: "do",
            success: "cb://ok?keep=1&x=a%20b#frag",
            error: "cb://err",
            cancel: "cb://cancel?why"
        )
    }

    @Test(arguments: [
        ("cb://ok", "cb://ok?id=4%202&note=a%26b%3Dc"), ("cb://ok?", "cb://ok?id=4%202&note=a%26b%3Dc"),
        ("cb://ok?a=1", "cb://ok?a=1&id=4%202&note=a%26b%3Dc"), ("cb://ok?a=1&", "cb://ok?a=1&id=4%202&note=a%26b%3Dc"),
        ("cb://ok/path#f", "cb://ok/path?id=4%202&note=a%26b%3Dc#f"),
    ])
    func successAppendsResultsKeepingTheCallbacksOwnQuery(success: String, expected: String) throws {
        let request = try XCallbackRequest(scheme: "app", action: "do", success: success)
        #expect(request.successURL(results: [.init("id", "4 2"), .init("note", "a&b=c")]) == expected)
    }

    @Test func successWithoutResultsIsTheCallbackAsGiven() {
        #expect(request.successURL() == "cb://ok?keep=1&x=a%20b#frag")
        #expect(request.successURL(results: [.init("n", "1")]) == "cb://ok?keep=1&x=a%20b&n=1#frag")
    }

    @Test func errorCarriesCodeAndMessage() throws {
        #expect(
            request.errorURL(code: "notFound", message: "no note \"a&b\"")
                == "cb://err?errorCode=notFound&errorMessage=no%20note%20%22a%26b%22"
        )
        let parsed = try XCallbackRequest(
            parsing: "x://x-callback-url/r?"
                + (try #require(request.errorURL(code: "c", message: "m")).split(separator: "?")[1])
        )
        #expect(parsed.parameters == [.init("errorCode", "c"), .init("errorMessage", "m")])
    }

    @Test func reflectedErrorTextIsEncodedAndTruncated() throws {
        let attacker = String(repeating: "<script>", count: 100)
        let errorURL = try #require(request.errorURL(code: "failed", message: attacker))
        #expect(errorURL.hasPrefix("cb://err?errorCode=failed&errorMessage=%3Cscript%3E"))
        #expect(!errorURL.contains("<"))
        let message = try #require(
            try XCallbackRequest(parsing: "x://x-callback-url/r?" + errorURL.dropFirst("cb://err?".count))[
                parameter: "errorMessage"
            ]
        )
        #expect(message.count == XCallbackRequest.maximumErrorMessageLength)
        #expect(message.hasSuffix("…"))
    }

    @Test func cancelIsTheCallbackAsGiven() {
        #expect(request.cancelURL() == "cb://cancel?why")
    }

    @Test func missingCallbacksGiveNothingToOpen() throws {
        let bare = try XCallbackRequest(scheme: "app", action: "do")
        #expect(bare.successURL(results: [.init("a", "1")]) == nil)
        #expect(bare.errorURL(code: "c", message: "m") == nil)
        #expect(bare.cancelURL() == nil)
    }
}
