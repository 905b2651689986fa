import DomainClaims
import Foundation
import Synchronization
import Testing
import WebLinks

/// Digital Asset Links: statements as Google's API splits them, Dynamic App Links components, and a checker that
/// reads through any source (the network will be one).
@Suite struct AssetLinksTests {
    static let fingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")
    static let other = Array(repeating: "0C", count: 32).joined(separator: ":")

    @Test func severalRelationsAndFingerprintsAreSeveralStatements() throws {
        let list = try AssetStatementList(
            bytes: Array(
                #"""
                [{"relation": ["delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds", "Bad"],
                  "target": {"namespace": "android_app", "package_name": "com.example",
                             "sha256_cert_fingerprints": ["\#(Self.fingerprint)", "\#(Self.other)"]}}]
                """#.utf8
            )
        )
        #expect(list.statements.count == 4)
        #expect(list.statements(for: AssetRelation.handleAllURLs).count == 2)
        #expect(list.diagnostics.map(\.code) == ["W_RELATION"])
    }

    @Test func readsDynamicAppLinksComponents() throws {
        let list = try AssetStatementList(
            bytes: Array(
                #"""
                [{"relation": ["delegate_permission/common.handle_all_urls"],
                  "target": {"namespace": "android_app", "package_name": "com.example", "sha256_cert_fingerprints": ["\#(Self.fingerprint)"]},
                  "relation_extensions": {"delegate_permission/common.handle_all_urls": {"dynamic_app_link_components": [
                    {"/": "/private/*", "exclude": true, "comments": "not in the app"}, {"?": {"ref": "?*"}}]}}}]
                """#.utf8
            )
        )
        let statement = try #require(list.statements.first)
        #expect(list.diagnostics.isEmpty)
        func outcome(_ url: String) throws -> ClaimDecision.Outcome {
            statement.dynamicDecision(for: try Link(url), domain: "example.com").outcome
        }
        #expect(try outcome("https://example.com/private/1?ref=x") == .exclude)
        #expect(try outcome("https://example.com/shop?ref=x") == .match)
        #expect(try outcome("https://example.com/shop") == .noMatch)
    }

    /// A source that counts what it is asked for, as the network one will be asked.
    final class CountingSource: AssetLinksSource {
        let files: AssetLinksFiles
        let asked = Mutex<[String]>([])

        init(_ files: [String: String]) {
            self.files = AssetLinksFiles(files)
        }

        func file(at url: String) async -> AssetLinksFile {
            asked.withLock { $0.append(url) }
            return files[url]
        }
    }

    /// Every include is read, breadth-first, even after the statement that links is found: an error further down is
    /// part of the answer (Google's API reports it beside `linked`).
    @Test func readsEveryIncludeThroughTheSourceBreadthFirst() async throws {
        let statement =
            #"{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"com.example","sha256_cert_fingerprints":["\#(Self.fingerprint)"]}}"#
        let source = CountingSource([
            "https://example.com/.well-known/assetlinks.json":
                #"[{"include":"https://example.com/a.json"},{"include":"https://example.com/b.json"}]"#,
            "https://example.com/a.json": #"[{"include":"https://example.com/c.json"}]"#,
            "https://example.com/b.json": "[\(statement)]",
            "https://example.com/c.json": "[]",
        ])
        let query = AssetLinksQuery(
            source: try #require(AssetSite("https://example.com")),
            relation: AssetRelation.handleAllURLs,
            target: .androidApp(
                packageName: "com.example",
                fingerprint: try #require(CertificateFingerprint(Self.fingerprint))
            )
        )
        let answer = await AssetLinksChecker(source: source).check(query)
        #expect(answer.outcome == .success && answer.linked)
        #expect(answer.statement?.file == "https://example.com/b.json")
        #expect(
            source.asked.withLock { $0 } == [
                "https://example.com/.well-known/assetlinks.json", "https://example.com/a.json",
                "https://example.com/b.json", "https://example.com/c.json",
            ]
        )
    }

    @Test(arguments: [
        ("AB:CD", false), (fingerprint, true), (fingerprint.lowercased(), false),
        (fingerprint.replacingOccurrences(of: ":", with: "-"), false), (fingerprint + ":", false),
    ])
    func fingerprintsAre32UpperCaseOctets(_ text: String, _ valid: Bool) {
        #expect((CertificateFingerprint(text) != nil) == valid)
    }

    @Test(arguments: [
        ("https://example.com", "https://example.com"), ("HTTPS://Example.COM:443/", "https://example.com"),
        ("http://example.com:8080", "http://example.com:8080"), ("https://example.com/x", nil), ("example.com", nil),
        ("ftp://example.com", nil), ("https://example.com?x", nil),
    ])
    func sitesAreOrigins(_ text: String, _ origin: String?) {
        #expect(AssetSite(text)?.origin == origin)
    }
}
