import Foundation
import SwitchyardTestSupport
import Testing

/// What Docs/ says of the tool's output and of the bundled rules is what the tool does (issue 30 item 12: the lint
/// counts, a machine path, a complete example that warned, the two ways of writing `installed`).
@Suite struct DocsDriftTests {
    static func page(_ name: String) throws -> String {
        try String(contentsOf: SharedData.packageRoot.appendingPathComponent("Docs/\(name)"), encoding: .utf8)
    }

    /// The page's text with its line breaks as spaces, so a sentence can be matched whole.
    static func flat(_ name: String) throws -> String {
        try page(name).replacing(/\s+/, with: " ")
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func ruleToolingsLintCountsAreTheTools() async throws {
        let text = try Self.flat("RuleTooling.md")
        let counts = try #require(text.firstMatch(of: /v5 manifest it reports (\d+) errors, .*? and (\d+) warnings \(/))
        let v5 = try #require(SharedData.url("openerManifest-v5.json")).path
        let output = await InProcessCommand.run(["lint", v5])
        #expect(
            output.stdout.hasSuffix("\(v5): \(counts.1) errors, \(counts.2) warnings\n"),
            "\(output.stdout.suffix(200))"
        )
    }

    /// No page links to or names a path of one machine.
    @Test func noPageNamesAMachinePath() throws {
        let pages = try FileManager.default.contentsOfDirectory(
            atPath: SharedData.packageRoot.appendingPathComponent("Docs").path
        ).filter { $0.hasSuffix(".md") }
        #expect(pages.count >= 8)
        for page in pages {
            let text = try Self.page(page)
            for machine in ["/work/", "/home/", "/Users/", "/root/", "file://"] {
                #expect(!text.contains(machine), "\(page) names \(machine)")
            }
        }
    }

    /// Docs/UserLayer.md's complete example, over the bundled rules: no error, no warning, its tests pass.
    @Test func theUserLayersCompleteExampleWarnsOfNothing() async throws {
        let text = try Self.page("UserLayer.md")
        let section = try #require(text.range(of: "## A complete example"))
        let blocks = ReadmeBlock.parse(String(text[section.upperBound...]))
        let example = try #require(blocks.first { $0.language == "json" })
        let directory = try TemporaryDirectory()
        let layer = try directory.write(example.text, named: "user-layer.json")
        let lint = await InProcessCommand.run(["lint", "--user-layer", layer])
        #expect(lint.status == 0, "\(lint.stdout)\(lint.stderr)")
        #expect(lint.stdout.hasSuffix("\(layer): 0 errors, 0 warnings\n"), "\(lint.stdout)")
        let test = await InProcessCommand.run(["test", "--user-layer", layer])
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
    }

    /// Docs/Service.md says how `installed` is written in each place, and that it takes schemes.
    @Test func theServicePageSaysHowInstalledIsWritten() throws {
        let text = try Self.flat("Service.md")
        #expect(
            text.contains(
                "in a query string every value is text and a list is comma-separated (`installed=twitter,youtube`)"
            )
        )
        #expect(
            text.contains(
                #"in a JSON body each has its JSON type and a list is an array (`"installed": ["twitter", "youtube"]`)"#
            )
        )
        #expect(text.contains("by URL scheme (`twitter`, not the app identifier `x`)"))
    }

    /// Docs/Architecture.md's module table and diagram name every module of the package (each folder of `Sources`
    /// with Swift sources) and no other: a module added, renamed or removed without the map fails here.
    @Test func theArchitectureMapNamesEveryModule() throws {
        let sources = SharedData.packageRoot.appendingPathComponent("Sources")
        let folders = try FileManager.default.contentsOfDirectory(atPath: sources.path)
        let modules = Set(
            folders.filter { folder in
                // The C shims (CICU, CJavaScriptCore) are a module map each, not a module of the design.
                !FileManager.default.fileExists(
                    atPath: sources.appendingPathComponent(folder).appendingPathComponent("module.modulemap").path
                ) && !folder.hasPrefix(".")
            }
        )
        let page = try Self.page("Architecture.md")
        let rows = Set(
            page.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("| `") else { return nil }
                return line.dropFirst(3).prefix { $0 != "`" }.description
            }
        )
        let table = rows.filter { !$0.contains("/") && !$0.contains(" ") }
        #expect(modules.subtracting(table).isEmpty, "modules without a row: \(modules.subtracting(table).sorted())")
        #expect(table.subtracting(modules).isEmpty, "rows for no module: \(table.subtracting(modules).sorted())")
        for module in modules where module != "switchyard" {
            let drawn = page.contains("  \(module)[\"") || page.contains("  \(module) -->")
            #expect(drawn, "\(module) is not in the diagram")
        }
    }
}
