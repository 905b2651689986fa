import Foundation
import LinkMatching
import LinkResolver
import LinkRules
import RuleTooling
import SwitchyardTestSupport
import Testing

/// Minify and migrate: what they keep and drop, and proof by the original's own tests.
@Suite struct ManifestRewritingTests {
    static func root(_ text: String = ToolingFixture.manifest) throws -> JSONNode {
        try #require(try ToolingFixture.loaded(text).root)
    }

    static func equivalence(original text: String, rewritten: String) async throws -> EquivalenceReport {
        let original = RuleSet(try ToolingFixture.loaded(text))
        let rewrittenRules = try RuleSet.load(rewritten, file: "rewritten.json")
        #expect(rewrittenRules.errors.isEmpty, "\(rewrittenRules.errors)")
        return await ManifestEquivalence.check(
            original: original,
            rewritten: rewrittenRules,
            engine: ScriptEngine(fetcher: nil)
        )
    }

    // MARK: Minify

    @Test func minifyKeepsWhatClientsReadAndProvesItOnTheOriginalsTests() async throws {
        let result = ManifestMinifier().minify(try Self.root())
        #expect(
            !result.text.contains("testInputs") && !result.text.contains("testResults")
                && !result.text.contains("\"tests\"")
        )
        #expect(!result.text.contains("docs"))
        #expect(!result.text.contains("\n"))
        #expect(result.text.contains(#""new":true"#))
        #expect(result.text.contains(#""previews""#))
        #expect(result.text.utf8.count < ToolingFixture.manifest.utf8.count / 2)
        let report = try await Self.equivalence(original: ToolingFixture.manifest, rewritten: result.text)
        #expect(report.isEquivalent, "\(report.differences)")
        #expect(report.original.passed == 6)
        #expect(report.original.failed == 0)
    }

    @Test func minifiedScriptsLoseCommentsAndStillPass() async throws {
        let result = ManifestMinifier().minify(try Self.root())
        #expect(result.scriptsMinified == 1)
        #expect(!result.text.contains("The note id"))
        #expect(result.text.utf8.count < result.keyStrippedBytes)
        let asWritten = ManifestMinifier(options: .init(minifyScripts: false)).minify(try Self.root())
        #expect(asWritten.text.contains("The note id"))
        #expect(asWritten.text.utf8.count == asWritten.keyStrippedBytes)
    }

    @Test func stripNewDropsNewAndPreviews() throws {
        let result = ManifestMinifier(options: .init(stripNew: true)).minify(try Self.root())
        #expect(!result.text.contains(#""new""#))
        #expect(!result.text.contains(#""previews""#))
        #expect(result.text.contains(#""redirects""#))
    }

    @Test func stripForBundleDropsLegacyScriptBesideScript2AndStoreExtras() throws {
        let text = try ToolingFixture.seeded(
            #""appId": "quill","#,
            #""appId": "quill", "script": "function process(u, c) { c(u); }","#
        )
        .replacingOccurrences(
            of: #""storeId": 100000001,"#,
            with: #""storeId": 100000001, "iconURL": "https://i.invalid/p.png", "macStoreId": 5,"#
        )
        let bundle = ManifestMinifier(options: .init(stripForBundle: true)).minify(try Self.root(text))
        #expect(!bundle.text.contains(#""script":"#))
        #expect(bundle.text.contains(#""script2":"#))
        #expect(
            !bundle.text.contains("iconURL") && !bundle.text.contains("macStoreId") && !bundle.text.contains(#""new""#)
        )
        #expect(bundle.text.contains(#""storeId":100000001"#))
        let plain = ManifestMinifier().minify(try Self.root(text))
        #expect(plain.text.contains(#""script":"#) && plain.text.contains("iconURL"))
    }

    @Test func schemeWithSlashesBecomesColonAndEmptyActionsGo() throws {
        let text = try ToolingFixture.seeded(#""scheme": "quill","#, #""scheme": "quill://","#)
            .replacingOccurrences(
                of: #""actions": ["#,
                with: #""actions": [{"title": "Empty", "regex": "x", "formats": []},"#
            )
        let result = ManifestMinifier().minify(try Self.root(text))
        #expect(result.text.contains(#""scheme":"quill:""#))
        #expect(!result.text.contains("Empty"))
        #expect(result.droppedActions == ["/actions/0"])
    }

    @Test func keepTestsLetsTheOutputRunItsOwnTests() async throws {
        let result = ManifestMinifier(options: .init(keepTests: true)).minify(try Self.root())
        let rules = try RuleSet.load(result.text)
        let report = await RuleTestRunner(rules: rules, engine: ScriptEngine(fetcher: nil)).run()
        #expect(report.passed == 6 && report.failed == 0 && report.skipped == 0)
    }

    @Test func aChangedRuleIsCaughtByTheEquivalenceCheck() async throws {
        let changed = ManifestMinifier().minify(try Self.root()).text.replacingOccurrences(
            of: "pebble://post/$2",
            with: "pebble://p/$2"
        )
        let report = try await Self.equivalence(original: ToolingFixture.manifest, rewritten: changed)
        #expect(!report.isEquivalent)
        #expect(report.differences.count == 2)
        #expect(report.differences.first?.hasPrefix("/actions/0/formats/0/testResults/0") == true)
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func minifiedRealManifestIsSmallerThanKeyStrippingAndPassesTheSameCases() async throws {
        let url = try #require(SharedData.url("openerManifest-v5.json"))
        let loaded = try ManifestLoader().load(contentsOf: url)
        let result = ManifestMinifier().minify(try #require(loaded.root))
        #expect(result.text.utf8.count < result.keyStrippedBytes)
        #expect(result.scriptsMinified >= 190)
        let report = await ManifestEquivalence.check(
            original: RuleSet(loaded),
            rewritten: try RuleSet.load(result.text),
            engine: ScriptEngine(fetcher: nil)
        )
        #expect(report.isEquivalent, "\(report.differences.prefix(5))")
        #expect(
            report.rewritten.passed == report.original.passed && report.rewritten.failed == report.original.failed
                && report.rewritten.skipped == report.original.skipped
        )
        #expect(report.original.results.count == 2120)
    }

    // MARK: Migrate

    @Test func migratesDownToLegacyKeysAndForms() throws {
        let result = ManifestMigrator(to: .v2).migrate(try ToolingFixture.loaded())
        let text = JSONWriter().write(result.root)
        #expect(text.contains(#""displayName": "Pebble""#))
        #expect(text.contains(#""storeIdentifier": "100000001""#))
        #expect(text.contains(#""scheme": "pebble://""#))
        #expect(text.contains(#""appIdentifier": "pebble""#))
        #expect(text.contains(#""redirectRules""#))
        #expect(!text.contains(#""appId""#) && !text.contains(#""storeId""#))
        // script2 (v3) and redirect rules (Opener 1.5.8) are kept, each with a warning.
        #expect(result.warnings.map(\.pointer).sorted() == ["/actions/1/formats/0/script2", "/redirects"])
        #expect(result.warnings.allSatisfy { $0.message.contains("kept") && $0.position != nil })
        #expect(try ManifestLoader().load(text).manifest.version < .v4)
    }

    @Test func droppingUnsupportedContentWarnsForEachItem() throws {
        let result = ManifestMigrator(to: .v1, unsupported: .drop).migrate(try ToolingFixture.loaded())
        let text = JSONWriter().write(result.root)
        #expect(
            !text.contains("browsers") && !text.contains("previews") && !text.contains("redirect")
                && !text.contains("script2")
        )
        #expect(!text.contains("Open Note"))  // its only format was a script2
        let pointers = result.warnings.map(\.pointer)
        #expect(pointers.contains("/browsers") && pointers.contains("/previews") && pointers.contains("/redirects"))
        #expect(pointers.contains("/actions/1/formats/0/script2") && pointers.contains("/actions/1"))
        #expect(result.warnings.allSatisfy { $0.message.contains("dropped") })
        let manifest = try ManifestLoader().load(text).manifest
        #expect(manifest.version == .v1)
        #expect(manifest.actions.count == 1)
    }

    @Test func everyVersionPairRoundTripsTheFixture() throws {
        let original = try ToolingFixture.loaded()
        for down in ManifestVersion.allCases {
            let lowered = ManifestMigrator(to: down).migrate(original)
            let loweredLoaded = try ManifestLoader().load(JSONWriter().write(lowered.root))
            let raised = ManifestMigrator(to: .v5).migrate(loweredLoaded)
            #expect(raised.root.withoutPositions == original.root?.withoutPositions, "v5 → \(down) → v5")
        }
    }

    @Test func nonNumericStoreIdCannotBecomeAVersion5Number() throws {
        let text =
            #"{"apps": [{"identifier": "a", "displayName": "A", "scheme": "a://", "storeIdentifier": "id12"}], "actions": []}"#
        let result = ManifestMigrator(to: .v5, unsupported: .drop).migrate(try ManifestLoader().load(text))
        #expect(!JSONWriter().write(result.root).contains("storeId"))
        #expect(result.warnings.map(\.pointer) == ["/apps/0/storeIdentifier"])
        let kept = ManifestMigrator(to: .v5).migrate(try ManifestLoader().load(text))
        #expect(JSONWriter(style: .compact).write(kept.root).contains(#""storeId":"id12""#))
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func realVersion2MigratesToVersion5WithTheSameTestResults() async throws {
        let url = try #require(SharedData.url("openerManifest-v2.json"))
        let v2 = try ManifestLoader().load(contentsOf: url)
        let up = ManifestMigrator(to: .v5).migrate(v2)
        let v5Text = JSONWriter(style: .pretty(indent: 4)).write(up.root)
        let v5 = try ManifestLoader().load(v5Text)
        #expect(v5.manifest.version == .v5)
        let scripts = ScriptEngine(fetcher: nil)
        let before = await RuleTestRunner(rules: RuleSet(v2), engine: scripts).run()
        let after = await RuleTestRunner(rules: RuleSet(v5), engine: scripts).run()
        #expect(before.passed == after.passed && before.failed == after.failed && before.skipped == after.skipped)
        #expect(before.passed == 763)
        // Up, down, up: the same manifest.
        let down = ManifestMigrator(to: .v2).migrate(v5)
        let again = ManifestMigrator(to: .v5).migrate(try ManifestLoader().load(JSONWriter().write(down.root)))
        #expect(again.root.withoutPositions == up.root.withoutPositions)
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func realVersion5RoundTripsThroughVersion2() throws {
        let url = try #require(SharedData.url("openerManifest-v5.json"))
        let v5 = try ManifestLoader().load(contentsOf: url)
        let down = ManifestMigrator(to: .v2).migrate(v5)
        let downText = JSONWriter(style: .pretty(indent: 4)).write(down.root)
        #expect(!downText.contains(#""appId""#))
        let back = ManifestMigrator(to: .v5).migrate(try ManifestLoader().load(downText))
        #expect(back.root.withoutPositions == v5.root?.withoutPositions)
    }

    // MARK: JSON writer

    @Test func writerKeepsOrderNumbersAndEscapes() throws {
        let text = #"{"b": [1.50, 12345678901234567890, true, null], "a": "q\"\\\n\u0001é/", "c": {}}"#
        let node = try JSONReader().parse(text)
        for style in [JSONWriter.Style.compact, .pretty(indent: 2)] {
            let written = JSONWriter(style: style).write(node)
            #expect(try JSONReader().parse(written).withoutPositions == node.withoutPositions)
        }
        #expect(
            JSONWriter(style: .compact).write(node)
                == #"{"b":[1.50,12345678901234567890,true,null],"a":"q\"\\\n\u0001é/","c":{}}"#
        )
    }
}
