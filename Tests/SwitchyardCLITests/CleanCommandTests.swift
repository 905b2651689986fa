import Foundation
import LinkCleaning
import SwitchyardTestSupport
import Testing

/// `switchyard clean`, in process, on catalogs written here (and one served by a loopback server for --update).
@Suite struct CleanCommandTests {
    static let catalog = #"""
        {"providers": {
          "shop": {"urlPattern": "^https?:\\/\\/shop\\.example", "completeProvider": false,
                   "rules": ["utm_[a-z]+"], "referralMarketing": ["tag"]},
          "ads": {"urlPattern": "^https?:\\/\\/ads\\.example", "completeProvider": true}
        }}
        """#

    /// A fresh folder with `catalog` written as `data.json`; the folder is also the run's XDG_CACHE_HOME.
    static func folder(catalog: String = catalog) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("clean-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(catalog.utf8).write(to: folder.appendingPathComponent("data.json"))
        return folder
    }

    static func run(_ arguments: [String], cache folder: URL) async -> CommandOutcome {
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CACHE_HOME"] = folder.appendingPathComponent("cache").path
        return await InProcessCommand.run(["clean"] + arguments, environment: environment)
    }

    @Test func printsOneCleanedLinkPerInput() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rules = folder.appendingPathComponent("data.json").path
        let outcome = await Self.run(
            ["--rules", rules, "https://shop.example/p?utm_source=x&tag=a&id=1", "https://ads.example/c?id=2"],
            cache: folder
        )
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout == "https://shop.example/p?id=1\nhttps://ads.example/c?id=2\n")
        #expect(
            outcome.stderrLines == [#"https://ads.example/c?id=2: note: the complete provider "ads" blocks this link"#]
        )
        let allowed = await Self.run(
            ["--rules", rules, "--allow-referral-marketing", "https://shop.example/p?utm_source=x&tag=a"],
            cache: folder
        )
        #expect(allowed.stdout == "https://shop.example/p?tag=a\n")
    }

    @Test func explainListsWhatRemovedWhat() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rules = folder.appendingPathComponent("data.json").path
        let outcome = await Self.run(
            ["--rules", rules, "--explain", "https://shop.example/p?utm_source=x&tag=a", "https://other.example/"],
            cache: folder
        )
        #expect(
            outcome.stdout == """
                https://shop.example/p
                  removed utm_source=x (query) by providers/shop/rules/0 "utm_[a-z]+"
                  removed tag=a (query) by providers/shop/referralMarketing/0 "tag"
                https://other.example/
                  nothing to remove

                """
        )
    }

    @Test func jsonIsOneDocument() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let rules = folder.appendingPathComponent("data.json").path
        let outcome = await Self.run(
            ["--rules", rules, "--json", "https://shop.example/?utm_a=1", "nope"],
            cache: folder
        )
        #expect(outcome.status == 2)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any]
        )
        let catalog = try #require(document["catalog"] as? [String: Any])
        #expect(catalog["providers"] as? Int == 2)
        let results = try #require(document["results"] as? [[String: Any]])
        #expect(results.count == 2)
        let first = try #require(results[0]["result"] as? [String: Any])
        #expect(first["link"] as? String == "https://shop.example/")
        #expect((first["steps"] as? [[String: Any]])?.first?["text"] as? String == "utm_a=1")
        #expect((results[1]["error"] as? [String: Any])?["code"] as? String == "E_NOT_ABSOLUTE")
    }

    @Test func withoutACatalogItSaysHowToGetOne() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = await Self.run(["https://shop.example/"], cache: folder)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains("no cleaning catalog: pass --rules PATH|URL"))
        #expect(outcome.stderr.contains("switchyard clean --update"))
        let usage = await Self.run([], cache: folder)
        #expect(usage.status == 2)
        #expect(usage.stderr.hasPrefix("error: give at least one link to clean, or --update"))
    }

    @Test func aBadCatalogIsLocated() async throws {
        let folder = try Self.folder(catalog: "{\"providers\": {\n  \"a\": {\"urlPattern\": 1}}}")
        defer { try? FileManager.default.removeItem(at: folder) }
        let rules = folder.appendingPathComponent("data.json").path
        let broken = await Self.run(["--rules", rules, "https://a.example/"], cache: folder)
        // A provider with an error is skipped and reported; the rest (none here) is used.
        #expect(broken.status == 0)
        #expect(broken.stderrLines.first?.hasPrefix("\(rules):2:23: error: the urlPattern of provider \"a\"") == true)
        try Data("{\"providers\": 3}".utf8).write(to: URL(fileURLWithPath: rules))
        let notACatalog = await Self.run(["--rules", rules, "https://a.example/"], cache: folder)
        #expect(notACatalog.status == 2)
        #expect(notACatalog.stderrLines.first?.hasPrefix("\(rules):1:15: error: not a ClearURLs catalog") == true)
        #expect(notACatalog.stderrLines.last == "\(rules): error: the cleaning catalog cannot be used")
    }

    @Test func updateDownloadsVerifiesAndSavesTheCatalogForLaterRuns() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = Array(Self.catalog.utf8)
        let hash = CleaningCatalog.sha256Hex(Data(body))
        let server = try await LoopbackHTTPServer.start { request in
            switch request.path {
            case "/data.minify.json": .init(status: 200, body: .bytes(body))
            case "/rules.minify.hash": .text(hash)
            default: .text("not found", status: 404)
            }
        }
        defer { Task { await server.stop() } }
        let update = await Self.run(
            [
                "--update", "--rules", server.url("/data.minify.json"), "--hash", server.url("/rules.minify.hash"),
                "--allow-private-addresses",
            ],
            cache: folder
        )
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.stderr.contains("2 providers saved, SHA-256 verified"))
        let later = await Self.run(["--offline", "https://shop.example/?utm_x=1&a=b"], cache: folder)
        #expect(later.status == 0, "\(later.stderr)")
        #expect(later.stdout == "https://shop.example/?a=b\n")
        let bad = await Self.run(
            [
                "--update", "--rules", server.url("/data.minify.json"), "--hash", server.url("/missing"),
                "--allow-private-addresses",
            ],
            cache: folder
        )
        #expect(bad.status == 2)
        #expect(bad.stderrLines.last?.contains("HTTP 404") == true)
    }
}
