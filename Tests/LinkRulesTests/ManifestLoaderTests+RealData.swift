import Foundation
import LinkRules
import SwitchyardTestSupport
import Testing

/// The real Opener manifests, read from `../shared/data` at test time (never copied into the project).
extension ManifestLoaderTests {
    static func loadShared(_ name: String) throws -> LoadedManifest {
        try ManifestLoader().load(Array(try SharedData.data(name)), file: name)
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func loadsTheRealVersion5ManifestWithoutErrors() throws {
        let loaded = try Self.loadShared("openerManifest-v5.json")
        #expect(loaded.errors.isEmpty, "\(loaded.errors.prefix(5))")
        let manifest = loaded.manifest
        #expect(manifest.version == .v5)
        #expect(manifest.apps.count == 265)
        #expect(manifest.actions.count == 365)
        #expect(manifest.actions.count { !$0.hasTitle } == 105)
        #expect(manifest.actions.reduce(0) { $0 + $1.formats.count } == 561)
        #expect(manifest.browsers.count == 44)
        #expect(manifest.previews.count == 18)
        #expect(manifest.redirects.count == 31)
        #expect(manifest.redirects.reduce(0) { $0 + $1.tests.count } == 65)
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func keepsTheRealRedirectRulesInFileOrder() throws {
        let redirects = try Self.loadShared("openerManifest-v5.json").manifest.redirects
        let first = try #require(redirects.first)
        #expect(first.pattern.hasPrefix(#"https?://(\w+\.)*google"#))
        #expect(first.pattern == #"https?://(\w+\.)*google\.\w+/url.*url=[^&]+.*$"#)
        #expect(redirects.dropFirst().first?.pattern == #"https?://(\w+\.)*google\.\w+/url.*q=[^&]+.*$"#)
        // Positions grow with file order.
        let lines = redirects.compactMap { Self.position(of: $0.pointer, in: "openerManifest-v5.json")?.line }
        #expect(lines.count == 31)
        #expect(lines == lines.sorted())
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func acceptsTheQuirksOfTheRealVersion5Manifest() throws {
        let manifest = try Self.loadShared("openerManifest-v5.json").manifest
        // Identifiers shared between apps and browsers, one inline app, booleans written as 1.
        let appIds = Set(manifest.apps.map(\.identifier))
        #expect(manifest.browsers.contains { appIds.contains($0.app.identifier) })
        #expect(manifest.actions.flatMap(\.formats).count { $0.inlineApp != nil } == 1)
        #expect(manifest.actions.flatMap(\.formats).allSatisfy { $0.inlineApp != nil || appIds.contains($0.appId) })
    }

    /// Documented: the file called v2 uses the long keys and browsers, and every format that has `script2` also
    /// keeps the legacy `script`, so it is detected as v2 (not v3, which would need a `script2`-only format).
    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func loadsTheRealVersion2ManifestWithoutErrors() throws {
        let loaded = try Self.loadShared("openerManifest-v2.json")
        #expect(loaded.errors.isEmpty, "\(loaded.errors.prefix(5))")
        let manifest = loaded.manifest
        #expect(manifest.version == .v2)
        #expect(manifest.apps.count == 170)
        #expect(manifest.actions.count == 240)
        #expect(manifest.browsers.count == 20)
        #expect(manifest.apps.allSatisfy { !$0.scheme.hasSuffix(":") && !$0.scheme.contains("/") })
        let formats = manifest.actions.flatMap(\.formats)
        #expect(!formats.contains { $0.fields.script2 != nil && $0.fields.script == nil })
    }

    static func position(of pointer: JSONPointer, in name: String) -> SourcePosition? {
        guard let bytes = try? SharedData.data(name), let root = try? JSONReader().parse(Array(bytes)) else {
            return nil
        }
        return root.position(of: pointer)
    }
}
