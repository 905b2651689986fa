import LinkRules
import Testing

/// A v5 manifest using every field the loader decodes: numbers, booleans written as 1, inline apps, previews,
/// redirects in file order, free-text keys and misspelt keys.
extension ManifestLoaderTests {
    static let v5 = #"""
        {
          "apps": [
            {"identifier": "twitter", "name": "Twitter", "scheme": "twitter://", "storeId": 333903271,
             "macStoreId": 1482454543, "new": 1, "platform": "phone", "note": "first-party client"},
            {"identifier": "tweetbot", "name": "Tweetbot", "scheme": "tweetbot:", "storeId": 1527500834, "new": true,
             "docs": "https://example.com/docs"}
          ],
          "actions": [
            {"title": "Open Tweet", "regex": "https?://twitter\\.com/\\w+/status/(\\d+)",
             "testInputs": ["https://twitter.com/a/status/1"],
             "formats": [
               {"appId": "twitter", "format": "twitter://status?id=$1", "testResults": ["twitter://status?id=1"]},
               {"appId": "tweetbot", "script2": "function process(url, done) { done(null); }", "testResult": [null]}
             ]},
            {"titel": "typo", "regex": "https?://blog\\.example/(.+)", "headers": true,
             "formats": [{"app": {"identifier": "inline", "name": "Inline", "scheme": "inline"}, "format": "inline://$1"}]}
          ],
          "browsers": [
            {"identifier": "chrome", "name": "Chrome", "scheme": "googlechrome", "storeId": 535886823,
             "regex": "http(s?.*)$", "format": "googlechrome$1",
             "testInputs": ["https://a.example"], "testResults": ["googlechromes://a.example"]}
          ],
          "previews": [
            {"regex": "https?://img\\.example/(\\w+)", "format": "https://img.example/$1.jpg", "canSave": 1, "docs": "thumbs"}
          ],
          "redirects": {
            "https?://z\\.example/.*": {"param": "u"},
            "https?://a\\.example/.*": {"format": "$0", "tests": {"https://a.example/x": "https://a.example/x"}},
            "https?://m\\.example/(.*)": {"param": "to"}
          }
        }
        """#

    @Test func detectsVersion5() throws {
        #expect(try Self.load(Self.v5).manifest.version == .v5)
    }

    @Test func decodesVersion5Apps() throws {
        let apps = try Self.load(Self.v5).manifest.apps
        #expect(apps.map(\.identifier) == ["twitter", "tweetbot"])
        #expect(apps.map(\.scheme) == ["twitter", "tweetbot"])
        #expect(apps.map(\.storeId) == [333_903_271, 1_527_500_834])
        #expect(apps[0].macStoreId == 1_482_454_543)
        #expect(apps.map(\.isNew) == [true, true])
        #expect(apps.map(\.platform) == [.phone, nil])
        #expect(apps[0].pointer == "/apps/0")
    }

    @Test func keepsFreeTextKeysWithoutWarnings() throws {
        let loaded = try Self.load(Self.v5)
        #expect(loaded.manifest.apps[0].extras.map(\.key) == ["note"])
        #expect(loaded.manifest.apps[1].extras.map(\.key) == ["docs"])
        #expect(loaded.manifest.previews.first?.extras.map(\.key) == ["docs"])
        #expect(
            !loaded.diagnostics.contains { ["note", "docs"].contains($0.pointer.split(separator: "/").last ?? "") }
        )
    }

    @Test func decodesVersion5Actions() throws {
        let actions = try Self.load(Self.v5).manifest.actions
        #expect(actions.count == 2)
        #expect(actions[0].title == "Open Tweet")
        #expect(actions[0].hasTitle)
        #expect(actions[0].testInputs == ["https://twitter.com/a/status/1"])
        #expect(actions[0].formats.map(\.appId) == ["twitter", "tweetbot"])
        #expect(actions[0].formats[0].fields.output == .template("twitter://status?id=$1"))
        #expect(actions[0].formats[1].fields.output?.needsScript == true)
        // A missing title reads as Opener's default.
        #expect(actions[1].title == "Open Link")
        #expect(actions[1].hasTitle == false)
        #expect(actions[1].headers)
    }

    @Test func decodesAnInlineAppObject() throws {
        let format = try #require(try Self.load(Self.v5).manifest.actions.last?.formats.first)
        #expect(format.appId == "inline")
        let app = try #require(format.inlineApp)
        #expect(app.name == "Inline")
        #expect(app.scheme == "inline")
        #expect(app.pointer == "/actions/1/formats/0/app")
    }

    @Test func decodesBrowsersAndPreviews() throws {
        let manifest = try Self.load(Self.v5).manifest
        let browser = try #require(manifest.browsers.first)
        #expect(browser.app.name == "Chrome")
        #expect(browser.regex == "http(s?.*)$")
        #expect(browser.testResults == ["googlechromes://a.example"])
        let preview = try #require(manifest.previews.first)
        #expect(preview.canSave)
        #expect(preview.fields.output == .template("https://img.example/$1.jpg"))
    }

    @Test func keepsRedirectRulesInFileOrder() throws {
        let redirects = try Self.load(Self.v5).manifest.redirects
        #expect(
            redirects.map(\.pattern) == [
                #"https?://z\.example/.*"#, #"https?://a\.example/.*"#, #"https?://m\.example/(.*)"#,
            ]
        )
        #expect(redirects.map(\.target) == [.param("u"), .format("$0"), .param("to")])
        #expect(redirects[1].tests == [RedirectTest(input: "https://a.example/x", expected: "https://a.example/x")])
        #expect(redirects[1].pointer.tokens == ["redirects", #"https?://a\.example/.*"#])
    }

    @Test func warnsAboutUnknownKeysWithASuggestion() throws {
        let warnings = try Self.load(Self.v5).diagnostics
        #expect(warnings.allSatisfy { $0.severity == .warning && $0.code == "W_UNKNOWN_KEY" }, "\(warnings)")
        #expect(warnings.map(\.pointer) == ["/actions/0/formats/1/testResult", "/actions/1/titel"])
        #expect(warnings[0].message.contains(#"did you mean "testResults"?"#))
        #expect(warnings[1].message.contains(#"did you mean "title"?"#))
        #expect(warnings.map { $0.position?.line } == [13, 15])
        #expect(warnings.allSatisfy { $0.file == "inline.json" })
    }

    @Test func suggestsTopLevelKeys() throws {
        let loaded = try Self.load(#"{"apps": [], "redirect": {"https?://x\\.example/": {"param": "u"}}}"#)
        #expect(loaded.manifest.redirects.isEmpty)
        let warning = try #require(loaded.diagnostics.first)
        #expect(loaded.diagnostics.count == 1)
        #expect(warning.code == "W_UNKNOWN_KEY")
        #expect(warning.pointer == "/redirect")
        #expect(warning.message.contains(#"did you mean "redirects"?"#))
    }

    @Test func doesNotSuggestKeysThatAreTooFarAway() throws {
        let text = #"{"apps": [], "actions": [{"regex": "x", "formats": [], "test": 1}], "colour": 1}"#
        let warnings = try Self.load(text).diagnostics
        #expect(warnings.map(\.pointer) == ["/colour", "/actions/0/test"])
        #expect(warnings.allSatisfy { $0.code == "W_UNKNOWN_KEY" && !$0.message.contains("did you mean") })
    }
}
