import LinkRules
import RuleTooling
import Testing
import WebLinks

/// The manifest's `claims` key of an app (its App Store app IDs and Android packages): read with located
/// diagnostics, kept by `migrate` and `minify`.
@Suite struct AppClaimNamesTests {
    static let manifest = #"""
        {"apps": [{"identifier": "example", "name": "Example", "scheme": "example",
                   "claims": {"appIDs": ["ABCDE12345.com.example.app", "com.example.app"],
                              "androidPackages": ["com.example.android", "nodots"], "ios": true}}],
         "actions": [{"title": "Open", "regex": "^https://example\\.com/(\\d+)$",
                      "formats": [{"appId": "example", "format": "example://$1"}]}]}
        """#

    @Test func theKeyIsReadAndItsBadNamesAreLocated() throws {
        let loaded = try ManifestLoader().load(Self.manifest)
        let claims = try #require(loaded.manifest.apps.first?.claims)
        #expect(claims.appIDs == ["ABCDE12345.com.example.app"])
        #expect(claims.androidPackages == ["com.example.android"])
        let found = loaded.diagnostics.map { "\($0.code) \($0.pointer)" }
        #expect(found.contains("E_CLAIM_NAME /apps/0/claims/appIDs/1"), "\(found)")
        #expect(found.contains("E_CLAIM_NAME /apps/0/claims/androidPackages/1"), "\(found)")
        #expect(found.contains("W_UNKNOWN_KEY /apps/0/claims/ios"), "\(found)")
    }

    @Test func migrateAndMinifyKeepIt() throws {
        let loaded = try ManifestLoader().load(Self.manifest)
        let minified = ManifestMinifier().minify(try #require(loaded.root))
        #expect(minified.text.contains(#""claims":{"appIDs":["ABCDE12345.com.example.app""#), "\(minified.text)")
        for version in [ManifestVersion.v2, .v5] {
            let migrated = ManifestMigrator(to: version).migrate(loaded)
            let again = try ManifestLoader().load(JSONWriter().write(migrated.root))
            #expect(again.manifest.apps.first?.claims?.appIDs == ["ABCDE12345.com.example.app"], "\(version)")
        }
    }
}
