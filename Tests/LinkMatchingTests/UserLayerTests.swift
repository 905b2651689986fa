import LinkMatching
import LinkRules
import SwitchyardTestSupport
import Testing
import WebLinks

/// A user layer over a rule set: what it removes, adds, hides and prefers, and what it says about it.
@Suite struct UserLayerTests {
    static let rules = Result {
        try RuleFixture.rules(
            actions: #"""
                [{"title": "Open Item", "regex": "^https://(?:www\\.)?shop\\.example/item/(\\d+)$",
                  "formats": [{"appId": "alpha", "format": "alpha://item/$1"}, {"appId": "beta", "format": "beta://item/$1"}]},
                 {"title": "Open User", "regex": "^https://social\\.example/(\\w+)$",
                  "formats": [{"appId": "alpha", "format": "alpha://user/$1"}]}]
                """#,
            browsers: #"""
                [{"identifier": "web", "name": "Web", "scheme": "web", "regex": "^(https?://.*)$", "format": "web:$1"},
                 {"identifier": "other", "name": "Other", "scheme": "other", "regex": "^(https?://.*)$", "format": "other:$1"}]
                """#,
            redirects: #"{"^https://out\\.example/": {"param": "u"}}"#
        )
    }

    static let item = "https://shop.example/item/7"

    /// The openings' apps, user-layer ones marked `+`.
    static func apps(_ resolution: Resolution) -> [String] {
        resolution.openings.map { ($0.layer == .user ? "+" : "") + ($0.app?.identifier ?? "-") }
    }

    @Test func withoutALayerEveryRuleApplies() throws {
        let rules = try Self.rules.get()
        #expect(Self.apps(try rules.resolve(Self.item)) == ["alpha", "beta", "web", "other"])
        #expect(rules.userLayer == nil)
    }

    @Test(arguments: [
        (#"[{"app": "beta"}]"#, ["alpha", "web", "other"]),
        (#"[{"browser": "other"}]"#, ["alpha", "beta", "web"]),
        (#"[{"action": "Open Item", "appId": "alpha"}]"#, ["beta", "web", "other"]),
        (#"[{"action": "Open Item"}]"#, ["web", "other"]),
        (#"["/actions/0"]"#, ["web", "other"]),
        (#"["/actions/0/formats/1", {"pointer": "/browsers/0"}]"#, ["alpha", "other"]),
    ])
    func disablesManifestEntriesByIdentifierOrPointer(disable: String, expected: [String]) throws {
        let layered = try Self.rules.get().applying(layer: #"{"switchyardUserLayer": 1, "disable": \#(disable)}"#)
        #expect(Self.apps(try layered.resolve(Self.item)) == expected)
        #expect(layered.userLayer?.diagnostics == [])
        // The manifest's rules stay as loaded under the layer.
        #expect(Self.apps(try layered.withoutUserLayer.resolve(Self.item)) == ["alpha", "beta", "web", "other"])
    }

    @Test func aDisabledRedirectRuleIsNotTried() throws {
        let layered = try Self.rules.get().applying(
            layer: #"{"switchyardUserLayer": 1, "disable": [{"redirect": "^https://out\\.example/"}]}"#
        )
        let link = "https://out.example/?u=https%3A%2F%2Fsocial.example%2Fjo"
        #expect(try Self.rules.get().resolve(link).unwrapped == "https://social.example/jo")
        #expect(try layered.resolve(link).unwrapped == "https://out.example/?u=https%3A%2F%2Fsocial.example%2Fjo")
    }

    @Test func aSiteExclusionLeavesTheSiteToBrowsersAndSkipsTheManifestsRedirectRules() throws {
        let layered = try Self.rules.get().applying(
            layer: #"""
                {"switchyardUserLayer": 1, "sites": [{"hosts": ["shop.example", "*.shop.example", "out.example"]}],
                 "actions": [{"title": "Mine", "regex": "^https://www\\.shop\\.example/item/(\\d+)$",
                              "formats": [{"appId": "beta", "format": "beta://mine/$1"}]}]}
                """#
        )
        #expect(Self.apps(try layered.resolve(Self.item)) == ["web", "other"])
        // The layer's own actions still apply on an excluded site.
        let www = try layered.resolve("https://www.shop.example/item/7", trace: true)
        #expect(Self.apps(www) == ["+beta", "web", "other"])
        let decision = try #require(www.trace?.userLayer?.first)
        #expect(decision.entry == "/sites/0" && decision.effect == .site)
        #expect(decision.rules == ["/actions/0/formats/0", "/actions/0/formats/1"])
        let out = try layered.resolve("https://out.example/?u=https%3A%2F%2Fsocial.example%2Fjo", trace: true)
        #expect(out.unwrapped == "https://out.example/?u=https%3A%2F%2Fsocial.example%2Fjo")
        #expect(out.trace?.redirects.first?.verdict == .disabled)
        #expect(Self.apps(try layered.resolve("https://social.example/jo")) == ["alpha", "web", "other"])
    }

    @Test func hideBeatsPreferAndPreferMarksWithTheLayersPointer() throws {
        let layered = try Self.rules.get().applying(
            layer: #"{"switchyardUserLayer": 1, "hide": ["beta", "other"], "prefer": ["beta", "alpha"]}"#
        )
        let resolution = try layered.resolve(Self.item, trace: true)
        #expect(Self.apps(resolution) == ["alpha", "web"])
        #expect(resolution.openings[0].preferred == OpeningPreference(by: .userLayer, reason: "/prefer/1"))
        #expect(resolution.openings[1].preferred == nil)
        #expect(
            resolution.trace?.userLayer?.map(\.effect) == [.hidden, .hidden, .preferred],
            "\(String(describing: resolution.trace?.userLayer))"
        )
    }

    @Test func theLayersRedirectRulesComeBeforeTheManifests() throws {
        let layered = try Self.rules.get().applying(
            layer: #"""
                {"switchyardUserLayer": 1,
                 "redirects": {"^https://out\\.example/\\?u=.*$": {"format": "https://social.example/mine"}}}
                """#
        )
        let resolution = try layered.resolve("https://out.example/?u=https%3A%2F%2Fsocial.example%2Fjo", trace: true)
        #expect(resolution.unwrapped == "https://social.example/mine")
        #expect(resolution.steps.map(\.layer) == [.user])
        #expect(resolution.trace?.redirects.map(\.verdict) == [.applied, .notTried])
        #expect(resolution.trace?.redirects.map(\.layer) == [.user, nil])
    }

    @Test func theLayersActionsComeFirstTaggedWithPointersIntoTheLayer() throws {
        let layered = try Self.rules.get().applying(
            layer: #"""
                {"switchyardUserLayer": 1, "apps": [{"identifier": "mine", "name": "Mine", "scheme": "mine"}],
                 "actions": [{"title": "Mine", "regex": "^https://shop\\.example/item/(\\d+)$",
                              "formats": [{"appId": "mine", "format": "mine://$1"}, {"appId": "alpha", "format": "alpha://mine/$1"},
                                          {"appId": "gone", "format": "gone://$1"}]}]}
                """#
        )
        let resolution = try layered.resolve(Self.item, trace: true)
        #expect(Self.apps(resolution) == ["+mine", "+alpha", "alpha", "beta", "web", "other"])
        #expect(resolution.openings[0].url == "mine://7" && resolution.openings[0].rule == "/actions/0/formats/0")
        #expect(resolution.trace?.actions.map(\.layer) == [.user, nil, nil])
        #expect(
            layered.userLayer?.diagnostics.map(\.description) == [
                #"user-layer.json:4:37: warning: appId "gone" names no app in the layer's "apps" or in fixture.json; this format is ignored [W_UNKNOWN_APP at /actions/0/formats/2/appId]"#
            ]
        )
    }

    @Test func aSourceAppRuleKeepsLinksFromThatAppToBrowsers() throws {
        let layered = try Self.rules.get().applying(
            layer: #"""
                {"switchyardUserLayer": 1,
                 "when": [{"sourceApps": ["com.tinyspeck.*"], "browserOnly": true},
                          {"sourceApps": ["com.apple.mobilemail"], "hosts": ["shop.example"], "hide": ["web"], "prefer": ["beta"]}]}
                """#
        )
        #expect(Self.apps(try layered.resolve(Self.item)) == ["alpha", "beta", "web", "other"])
        var fromSlack = MatchOptions()
        fromSlack.sourceApp = "com.tinyspeck.chatlyio"
        let slack = try layered.resolve(Self.item, options: fromSlack, trace: true)
        #expect(Self.apps(slack) == ["web", "other"])
        let decision = try #require(slack.trace?.userLayer?.first)
        #expect(decision.entry == "/when/0/browserOnly" && decision.target == "links from com.tinyspeck.chatlyio")
        var fromMail = MatchOptions()
        fromMail.sourceApp = "com.apple.mobilemail"
        let mail = try layered.resolve(Self.item, options: fromMail)
        #expect(Self.apps(mail) == ["alpha", "beta", "other"])
        #expect(mail.openings[1].preferred?.reason == "/when/1/prefer/0")
        #expect(
            Self.apps(try layered.resolve("https://social.example/jo", options: fromMail)) == ["alpha", "web", "other"]
        )
    }
}
