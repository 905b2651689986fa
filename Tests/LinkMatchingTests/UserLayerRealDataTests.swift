import BundledRules
import Foundation
import LinkMatching
import LinkRules
import SwitchyardTestSupport
import Testing

/// One user layer over the real manifests and the bundled rules: references the manifest no longer has are
/// warnings located in the layer, and a source-app rule decides on real rules.
@Suite(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
struct UserLayerRealDataTests {
    static let layer = """
        {
          "switchyardUserLayer": 1,
          "disable": [{"app": "twitter"}, {"browser": "firefox"}, {"action": "Open Tweet"}, {"app": "youtube"}],
          "prefer": ["safari"]
        }
        """

    static func vanished(over rules: RuleSet) throws -> [String] {
        try rules.applying(layer: layer).userLayer?.diagnostics.filter { $0.code == "W_VANISHED_REFERENCE" }.map {
            "\($0.position?.description ?? "-") \($0.pointer)"
        } ?? []
    }

    @Test func warnsOnlyAboutWhatEachManifestLacks() throws {
        #expect(try Self.vanished(over: RuleFixture.sharedRules("openerManifest-v5.json")) == [])
        #expect(try Self.vanished(over: RuleFixture.sharedRules("openerManifest-v2.json")) == [])
        #expect(try Self.vanished(over: RuleSet.bundled()) == ["3:15 /disable/0", "3:59 /disable/2"])
    }

    @Test func disablingAnAppRemovesItsFormatsAndKeepsTheOthers() throws {
        let rules = try RuleFixture.sharedRules("openerManifest-v5.json")
        let layered = try rules.applying(layer: Self.layer)
        let before = try rules.resolve("https://twitter.com/jack")
        let after = try layered.resolve("https://twitter.com/jack")
        #expect(before.openings.contains { $0.app?.identifier == "twitter" })
        #expect(!after.openings.contains { $0.app?.identifier == "twitter" || $0.app?.identifier == "firefox" })
        #expect(after.openings.contains { $0.app?.identifier == "tweetbot" })
        #expect(after.openings.first { $0.app?.identifier == "safari" }?.preferred?.reason == "/prefer/0")
    }

    @Test func aSourceAppRuleDecidesOnTheRealManifest() throws {
        let layered = try RuleFixture.sharedRules("openerManifest-v5.json").applying(
            layer: #"{"switchyardUserLayer": 1, "when": [{"sourceApps": ["com.tinyspeck.*"], "browserOnly": true}]}"#
        )
        var fromSlack = MatchOptions()
        fromSlack.sourceApp = "com.tinyspeck.chatlyio"
        let slack = try layered.resolve("https://twitter.com/jack", options: fromSlack)
        let plain = try layered.resolve("https://twitter.com/jack")
        #expect(plain.openings.contains { $0.kind == .action })
        #expect(!slack.openings.isEmpty && slack.openings.allSatisfy { $0.kind == .browser })
    }
}
