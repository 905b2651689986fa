import LinkRules
import Testing

/// One small hand-written manifest per format version (v1–v5): the detected version and the decoded fields.
@Suite struct ManifestLoaderTests {
    /// Loads a manifest text, failing the test when it cannot be loaded at all.
    static func load(_ text: String) throws -> LoadedManifest {
        try ManifestLoader().load(text, file: "inline.json")
    }

    // MARK: v1

    static let v1 = #"""
        {
          "apps": [
            {"name": "Tweeter", "identifier": "tweeter", "storeIdentifier": "333903271", "scheme": "tweeter://"}
          ],
          "actions": [
            {"title": "Open Tweet", "regex": "https?://tweeter\\.example/(\\d+)", "testInputs": ["https://tweeter.example/1"],
             "formats": [{"appIdentifier": "tweeter", "script": "function process(url, done) { done('tweeter://1'); }",
                          "testResults": ["tweeter://1"]}]}
          ]
        }
        """#

    @Test func decodesVersion1() throws {
        let loaded = try Self.load(Self.v1)
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let manifest = loaded.manifest
        #expect(manifest.version == .v1)
        let app = try #require(manifest.apps.first)
        #expect(app.identifier == "tweeter")
        #expect(app.name == "Tweeter")
        #expect(app.scheme == "tweeter")
        #expect(app.storeId == 333_903_271)
        let format = try #require(manifest.actions.first?.formats.first)
        #expect(format.appId == "tweeter")
        #expect(format.fields.output == .script("function process(url, done) { done('tweeter://1'); }", legacy: true))
        #expect(format.testResults == ["tweeter://1"])
        #expect(format.pointer == "/actions/0/formats/0")
    }

    // MARK: v2

    static let v2 = #"""
        {
          "apps": [
            {"displayName": "Instagram", "identifier": "instagram", "storeIdentifier": "389801252", "scheme": "instagram://"},
            {"displayName": "Safari View", "identifier": "safariview", "scheme": "x-safari-https://"}
          ],
          "actions": [
            {"title": "Open Profile", "regex": "https?://instagram\\.com/(\\w+)", "includeHeaders": 1,
             "formats": [
               {"appIdentifier": "instagram", "format": "instagram://user?username=$1"},
               {"appIdentifier": "safariview", "script": "legacy();", "script2": "modern();"}
             ]}
          ],
          "browsers": [
            {"displayName": "Chrome", "identifier": "chrome", "storeIdentifier": "535886823", "scheme": "googlechrome://",
             "regex": "http(s?.*)$", "format": "googlechrome$1"}
          ],
          "redirectRules": {
            "https?://z\\.example/.*": {"param": "u"},
            "https?://a\\.example/.*": {"param": "v"}
          }
        }
        """#

    @Test func decodesVersion2() throws {
        let loaded = try Self.load(Self.v2)
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let manifest = loaded.manifest
        #expect(manifest.version == .v2)
        #expect(manifest.apps.map(\.name) == ["Instagram", "Safari View"])
        #expect(manifest.apps.map(\.storeId) == [389_801_252, nil])
        #expect(manifest.apps.map(\.scheme) == ["instagram", "x-safari-https"])
        let action = try #require(manifest.actions.first)
        #expect(action.headers)
        #expect(action.formats.map(\.appId) == ["instagram", "safariview"])
        // Newer Opener clients run script2 when both are present.
        #expect(action.formats[1].fields.output == .script("modern();", legacy: false))
        let browser = try #require(manifest.browsers.first)
        #expect(browser.app.identifier == "chrome")
        #expect(browser.app.scheme == "googlechrome")
        #expect(browser.app.storeId == 535_886_823)
        #expect(browser.fields.output == .template("googlechrome$1"))
        #expect(manifest.redirects.map(\.pattern) == [#"https?://z\.example/.*"#, #"https?://a\.example/.*"#])
        #expect(manifest.redirects.map(\.target) == [.param("u"), .param("v")])
    }

    // MARK: v3

    static let v3 = #"""
        {
          "apps": [{"displayName": "Overcast", "identifier": "overcast", "storeIdentifier": "888422857", "scheme": "overcast://"}],
          "actions": [
            {"title": "Open Podcast", "regex": "https?://overcast\\.fm/(\\+\\w+)",
             "formats": [{"appIdentifier": "overcast", "script2": "function process(url, done) { done(null); }"}]}
          ]
        }
        """#

    @Test func decodesVersion3() throws {
        let loaded = try Self.load(Self.v3)
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        #expect(loaded.manifest.version == .v3)
        let format = try #require(loaded.manifest.actions.first?.formats.first)
        #expect(format.fields.output == .script("function process(url, done) { done(null); }", legacy: false))
        #expect(format.fields.output?.needsScript == true)
    }

    // MARK: v4

    static let v4 = #"""
        {
          "apps": [{"identifier": "ig", "name": "Instagram", "scheme": "instagram", "storeId": "389801252"}],
          "actions": [
            {"regex": "https?://instagram\\.com/p/(\\w+)", "headers": false,
             "formats": [{"appId": "ig", "format": "instagram://media?id=$1"}]}
          ],
          "redirects": {"https?://l\\.example/.*": {"param": "u"}}
        }
        """#

    @Test func decodesVersion4() throws {
        let loaded = try Self.load(Self.v4)
        // v4 writes store ids as strings: no type warning (only v5 expects numbers).
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        #expect(loaded.manifest.version == .v4)
        #expect(loaded.manifest.apps.first?.storeId == 389_801_252)
        let action = try #require(loaded.manifest.actions.first)
        #expect(action.headers == false)
        #expect(action.title == "Open Link")
        #expect(action.hasTitle == false)
        #expect(loaded.manifest.redirects.first?.target == .param("u"))
    }
}
