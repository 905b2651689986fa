import AppChooser
import Foundation
import Testing

/// Choosy's `url_format`s rendered safely: key-less query placeholders keep their value, a format that is one
/// placeholder stands for a whole link, and values cannot break the query they sit in.
@Suite struct ChoosyURLTests {
    static func app(_ format: String, action: String = "go") -> CatalogApp {
        CatalogApp(key: "app", name: "App", urlScheme: "app:", actions: [.init(key: action, urlFormat: format)])
    }

    @Test func aQueryPlaceholderWithoutAKeyKeepsItsValue() {
        let echofon = Self.app("echofon:///user_timeline?{{profile_screenname}}")
        #expect(
            echofon.url(for: "go", parameters: ["profile_screenname": "KarlTheFog"])
                == "echofon:///user_timeline?KarlTheFog"
        )
        // Escaped like any query value, and left out when empty.
        #expect(
            echofon.url(for: "go", parameters: ["profile_screenname": "a&b=c#d"])
                == "echofon:///user_timeline?a%26b%3Dc%23d"
        )
        #expect(echofon.url(for: "go", parameters: [:]) == "echofon:///user_timeline")
    }

    @Test func aFormatThatIsOnePlaceholderIsAWholeLink() {
        let safari = Self.app("{{url}}")
        #expect(
            safari.url(for: "go", parameters: ["url": "https://example.com/a b?q=1"]) == "https://example.com/a%20b?q=1"
        )
        #expect(safari.url(for: "go", parameters: ["url": "HTTPS://Example.COM/Path"]) == "https://example.com/Path")
        // Not a web link: the app's bare scheme, never a javascript: or file: URL.
        #expect(safari.url(for: "go", parameters: ["url": "javascript:alert(1)"]) == "app:")
        #expect(safari.url(for: "go", parameters: [:]) == "app:")
    }

    @Test(arguments: ["a&evil=1", "x=y", "frag#ment", "50%+1", "ü ?/"])
    func valuesCannotBreakTheQuery(value: String) {
        let app = Self.app("tweetbot:///post?text={{text}}&callback_url={{callback_url}}")
        let url = app.url(for: "go", parameters: ["text": value, "callback_url": "myapp://done?x=1&y=2"])
        let query = url.split(separator: "?", maxSplits: 1).last.map(String.init) ?? ""
        let pairs = query.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).map(String.init) }
        #expect(pairs.map { $0[0] } == ["text", "callback_url"], "\(url)")
        #expect(pairs.first?[1].removingPercentEncoding == value)
        #expect(pairs.last?[1].removingPercentEncoding == "myapp://done?x=1&y=2")
        #expect(!url.contains("#"))
    }
}
