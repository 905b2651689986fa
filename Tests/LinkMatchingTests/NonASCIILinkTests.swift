import LinkMatching
import SwitchyardTestSupport
import Testing
import WebLinks

/// A link with non-ASCII characters through a whole resolution (issue 30 item 8): redirect rules and actions see the
/// canonical text, percent-encoded as the WHATWG URL Standard says, and so do the document's links and the openings'
/// captures.
@Suite struct NonASCIILinkTests {
    static let rules = """
        [{"regex": "^https://xn--bcher-kva\\\\.example/([^?]+)\\\\?q=(.*)$", "formats": [{"appId": "alpha", "format": "alpha://book/$1?q=$2"}]}]
        """

    @Test func aResolutionSeesTheEncodedLink() throws {
        let rules = try RuleFixture.rules(actions: Self.rules)
        let resolution = try rules.resolve("https://Bücher.example/straße?q=日本")
        #expect(resolution.unwrapped == "https://xn--bcher-kva.example/stra%C3%9Fe?q=%E6%97%A5%E6%9C%AC")
        #expect(resolution.openings.map(\.url) == ["alpha://book/stra%C3%9Fe?q=%E6%97%A5%E6%9C%AC"])
    }

    /// A redirect rule's decoded value is a link like any other: the non-ASCII characters its escapes stood for are
    /// encoded again in the link the actions see.
    @Test func aRedirectResultIsEncodedAgain() throws {
        let rules = try RuleFixture.rules(
            actions: Self.rules,
            redirects: #"{"^https?://www\\.google\\.com/url\\?": {"param": "q"}}"#
        )
        let resolution = try rules.resolve(
            "https://www.google.com/url?q=https%3A%2F%2Fb%C3%BCcher.example%2Fstra%C3%9Fe%3Fq%3D%E6%97%A5"
        )
        #expect(resolution.unwrapped == "https://xn--bcher-kva.example/stra%C3%9Fe?q=%E6%97%A5")
        #expect(resolution.openings.map(\.url) == ["alpha://book/stra%C3%9Fe?q=%E6%97%A5"])
    }
}
