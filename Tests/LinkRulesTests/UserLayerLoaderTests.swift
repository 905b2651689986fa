import LinkRules
import Testing

/// `UserLayerLoader`: the user layer file read by the manifest's reader and decoder, every problem located.
@Suite struct UserLayerLoaderTests {
    static let complete = #"""
        {
          "switchyardUserLayer": 1,
          "disable": ["/actions/3", {"app": "tweetbot"}, {"browser": "firefox"},
                      {"action": "Open Tweet", "appId": "twitterrific"}, {"redirect": "^https?://t\\.co/"}],
          "sites": [{"hosts": ["bank.example", "*.bank.example"], "skipCleaning": true},
                    {"hosts": ["intranet.example"], "skipManifest": false}],
          "hide": ["firefox"],
          "prefer": ["twitter"],
          "when": [{"sourceApps": ["com.tinyspeck.*"], "hosts": ["twitter.com"], "browserOnly": true, "hide": ["x"]}],
          "apps": [{"identifier": "mine", "name": "Mine", "scheme": "mine"}],
          "actions": [{"regex": "^https://example\\.com/(\\d+)$", "formats": [{"appId": "mine", "format": "mine://$1"}]}],
          "redirects": {"^https://go\\.example/(.+)$": {"format": "https://example.com/$1"}}
        }
        """#

    @Test func decodesEveryKey() throws {
        let loaded = try UserLayerLoader().load(Self.complete, file: "layer.json")
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let layer = loaded.layer
        #expect(
            layer.disable.map(\.target) == [
                .pointer("/actions/3"), .app("tweetbot"), .browser("firefox"),
                .action(title: "Open Tweet", appId: "twitterrific"), .redirect(#"^https?://t\.co/"#),
            ]
        )
        #expect(layer.disable[1].pointer == "/disable/1")
        #expect(layer.sites.map(\.skipsManifest) == [true, false])
        #expect(layer.sites.map(\.skipsCleaning) == [true, false])
        #expect(layer.hide.map(\.identifier) == ["firefox"] && layer.prefer.map(\.identifier) == ["twitter"])
        let condition = try #require(layer.when.first)
        #expect(condition.browserOnly && condition.hide.map(\.identifier) == ["x"])
        #expect(condition.applies(sourceApp: "com.tinyspeck.chatlyio", host: "twitter.com"))
        #expect(!condition.applies(sourceApp: "com.tinyspeck.chatlyio", host: "example.com"))
        #expect(!condition.applies(sourceApp: nil, host: "twitter.com"))
        // The layer's own rules come from the manifest's decoder, located in the layer file.
        #expect(layer.rules.apps.map(\.identifier) == ["mine"])
        #expect(layer.rules.actions.first?.formats.first?.pointer == "/actions/0/formats/0")
        #expect(
            layer.rules.redirects.first?.pointer == JSONPointer(tokens: ["redirects", #"^https://go\.example/(.+)$"#])
        )
        #expect(layer.skipsCleaning(host: "www.bank.example") && layer.skipsCleaning(host: "bank.example"))
        #expect(!layer.skipsCleaning(host: "intranet.example"))
    }

    @Test func anUnknownKeyIsAWarningWithTheClosestKey() throws {
        let loaded = try UserLayerLoader().load(
            #"{"switchyardUserLayer": 1, "disabel": [], "when": [{"hosts": ["a.example"], "prefr": []}]}"#,
            file: "layer.json"
        )
        #expect(
            loaded.diagnostics.map(\.description) == [
                #"layer.json:1:39: warning: unknown key "disabel" is ignored; did you mean "disable"? [W_UNKNOWN_KEY at /disabel]"#,
                #"layer.json:1:86: warning: unknown key "prefr" is ignored; did you mean "prefer"? [W_UNKNOWN_KEY at /when/0/prefr]"#,
            ]
        )
        #expect(loaded.errors.isEmpty)
    }

    @Test func aBadEntryIsAnErrorAtItsLineColumnAndPointer() throws {
        let text = """
            {
              "switchyardUserLayer": 1,
              "sites": [{"hosts": ["https://bank.example/"]}],
              "disable": ["twitter", {"app": "a", "browser": "b"}, {"redirect": "x", "appId": "y"}],
              "when": [{"browserOnly": true}, {"sourceApps": ["com.*.x"]}],
              "actions": [{"regex": "x", "formats": [{"appId": "a"}]}]
            }
            """
        let loaded = try UserLayerLoader().load(text, file: "layer.json")
        #expect(
            loaded.errors.map(\.description) == [
                #"layer.json:3:24: error: a host pattern is a host, not a URL: write "example.com" [E_PATTERN at /sites/0/hosts/0]"#,
                #"layer.json:4:15: error: "twitter" is not a JSON pointer: write "/actions/12", or name the entry, as in {"app": "twitter"} [E_REFERENCE at /disable/0]"#,
                #"layer.json:4:26: error: a reference names one entry: exactly one of "app", "browser", "action", "redirect" or "pointer" [E_CONFLICT at /disable/1]"#,
                #"layer.json:4:83: error: "appId" narrows an "action" reference to one app; it cannot go with "redirect" [E_CONFLICT at /disable/2/appId]"#,
                #"layer.json:5:12: error: a "when" entry needs "sourceApps" or "hosts"; for every link, use the top-level keys [E_MISSING at /when/0]"#,
                #"layer.json:5:51: error: "com.*.x" is not a bundle identifier or a prefix such as "com.tinyspeck.*" [E_PATTERN at /when/1/sourceApps/0]"#,
                #"layer.json:6:42: error: there is neither "format" nor "script2": nothing produces a URL; this entry is ignored [E_MISSING at /actions/0/formats/0]"#,
            ]
        )
    }

    @Test(arguments: [
        (#"{"switchyardUserLayer": 2}"#, ManifestError.Code.unsupportedVersion, 1, 25),
        (#"{"switchyardUserLayer": "1"}"#, .unsupportedVersion, 1, 25),
        (#"{"apps": []}"#, .notAUserLayer, 1, 1),
        ("[1]", .notAUserLayer, 1, 1),
        ("{\"switchyardUserLayer\": 1,\n \"hide\": [,]}", .syntax, 2, 11),
    ])
    func aFileThatIsNotALayerIsRefusedWithItsPosition(
        text: String,
        code: ManifestError.Code,
        line: Int,
        column: Int
    )
        throws
    {
        #expect {
            try UserLayerLoader().load(text, file: "layer.json")
        } throws: { error in
            guard let error = error as? ManifestError else { return false }
            return error.code == code && error.file == "layer.json" && error.position?.line == line
                && error.position?.column == column
        }
    }

    @Test(arguments: [
        ("example.com", "example.com", true), ("example.com", "www.example.com", false),
        ("*.example.com", "www.example.com", true), ("*.example.com", "a.b.example.com", true),
        ("*.example.com", "example.com", false), ("*.example.com", "badexample.com", false),
        ("Example.COM.", "example.com", true),
    ])
    func hostPatternsMatchTheSiteOrItsSubdomains(pattern: String, host: String, matches: Bool) throws {
        #expect(try #require(HostPattern(pattern)).matches(host: host) == matches)
    }

    @Test(arguments: [
        ("com.tinyspeck.*", "com.tinyspeck.chatlyio", true), ("com.tinyspeck.*", "com.tinyspeck", false),
        ("com.tinyspeck.*", "com.tinyspeckx.app", false), ("com.apple.mobilemail", "COM.apple.MobileMail", true),
        ("*", "any.app", true), ("com.apple.mobilemail", "com.apple.mobilemail.extension", false),
    ])
    func sourceAppPatternsMatchAnIdentifierOrItsDescendants(pattern: String, app: String, matches: Bool) throws {
        #expect(try #require(SourceAppPattern(pattern)).matches(app) == matches)
    }
}
