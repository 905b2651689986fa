import Foundation
import Testing

/// `resolve`, `explain` and `serve` clean links with `--clean-rules` (or the copy `clean --update` saved); `--no-clean`
/// turns it off.
@Suite struct CleaningStageCommandTests {
    static let catalog = #"""
        {"providers": {"x": {"urlPattern": "^https?:\\/\\/(?:[a-z0-9-]+\\.)*?x\\.com", "completeProvider": false,
          "rules": ["utm_[a-z]+", "s"], "referralMarketing": [], "exceptions": [], "rawRules": [], "redirections": []}}}
        """#

    /// A folder with the catalog, and an environment whose cache has no saved catalog.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("clean-stage-\(UUID().uuidString)")
        var catalog: String { url.appendingPathComponent("data.min.json").path }
        var environment: [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["XDG_CACHE_HOME"] = url.appendingPathComponent("cache").path
            environment["XDG_CONFIG_HOME"] = url.appendingPathComponent("config").path
            return environment
        }

        init() throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try Data(CleaningStageCommandTests.catalog.utf8).write(to: URL(fileURLWithPath: catalog))
        }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    static let link = "https://x.com/jack/status/20?s=21&utm_source=share"

    static func unwrapped(_ outcome: CommandOutcome) throws -> String? {
        let document = try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        return document?["unwrapped"] as? String
    }

    @Test func resolveCleansWithTheCatalogGivenAndNotWithNoClean() async throws {
        let folder = try Folder()
        let cleaned = await InProcessCommand.run(
            ["resolve", "--offline", "--json", "--clean-rules", folder.catalog, Self.link],
            environment: folder.environment
        )
        #expect(cleaned.status == 0, "\(cleaned.stderr)")
        #expect(try Self.unwrapped(cleaned) == "https://x.com/jack/status/20")
        let document = try JSONSerialization.jsonObject(with: Data(cleaned.stdout.utf8)) as? [String: Any]
        let steps = try #require(document?["steps"] as? [[String: Any]])
        #expect(steps.first?["kind"] as? String == "clean")
        #expect((steps.first?["details"] as? [String])?.count == 2)
        let plain = await InProcessCommand.run(
            ["resolve", "--offline", "--json", "--no-clean", Self.link],
            environment: folder.environment
        )
        #expect(try Self.unwrapped(plain) == Self.link)
        // No catalog given and none saved: nothing is cleaned, nothing is said.
        let none = await InProcessCommand.run(
            ["resolve", "--offline", "--json", Self.link],
            environment: folder.environment
        )
        #expect(try Self.unwrapped(none) == Self.link && none.stderr.isEmpty)
        let both = await InProcessCommand.run(
            ["resolve", "--clean-rules", folder.catalog, "--no-clean", Self.link],
            environment: folder.environment
        )
        #expect(both.status == 2 && both.stderr.contains("--clean-rules and --no-clean cannot be used together"))
    }

    @Test func explainListsEachRemovedFieldAndItsRule() async throws {
        let folder = try Folder()
        let outcome = await InProcessCommand.run(
            ["explain", "--offline", "--clean-rules", folder.catalog, Self.link],
            environment: folder.environment
        )
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("removed s=21 (query) by providers/x/rules/1"), "\(outcome.stdout)")
        #expect(outcome.stdout.contains("removed utm_source=share (query) by providers/x/rules/0"), "\(outcome.stdout)")
        // One "clean", not "Cleaned by clean ClearURLs:".
        #expect(outcome.stdout.contains("\nCleaned by ClearURLs"), "\(outcome.stdout)")
        #expect(!outcome.stdout.contains("Cleaned by clean"), "\(outcome.stdout)")
    }

    @Test func aBadCatalogStopsResolveWithItsPlace() async throws {
        let folder = try Folder()
        // A provider that cannot be used is skipped, with its place; the rest of the catalog cleans.
        try Data(#"{"providers": {"x": {"urlPattern": 3}}}"#.utf8).write(to: URL(fileURLWithPath: folder.catalog))
        let skipped = await InProcessCommand.run(
            ["resolve", "--offline", "--clean-rules", folder.catalog, Self.link],
            environment: folder.environment
        )
        #expect(skipped.status == 0)
        #expect(skipped.stderr.contains("\(folder.catalog):1:36: error:"), "\(skipped.stderr)")
        #expect(skipped.stderr.contains("/providers/x/urlPattern"))
        // A file that is no catalog at all stops the command.
        try Data("{\"providers\": [\n,".utf8).write(to: URL(fileURLWithPath: folder.catalog))
        let refused = await InProcessCommand.run(
            ["resolve", "--offline", "--clean-rules", folder.catalog, Self.link],
            environment: folder.environment
        )
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("\(folder.catalog):2:"), "\(refused.stderr)")
        #expect(refused.stdout.isEmpty)
    }
}
