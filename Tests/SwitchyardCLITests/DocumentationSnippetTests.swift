import Foundation
import SwitchyardTestSupport
import Testing

/// The programs the DocC articles show (`Snippets/*.swift`, built by `swift build`, shown slice by slice with
/// `@Snippet`) run, and print exactly the output their `// → ` comments promise, in order: an article cannot show
/// code that does not compile or output that is not what the code prints.
@Suite struct DocumentationSnippetTests {
    static let directory = SharedData.packageRoot.appendingPathComponent("Snippets")

    static var snippets: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".swift") }.map { String($0.dropLast(6)) }.sorted()
    }

    @Test func thereAreSnippets() {
        #expect(Self.snippets.contains("GettingStarted"))
    }

    @Test(arguments: snippets)
    func snippetPrintsWhatItsCommentsSay(_ name: String) async throws {
        let source = try String(contentsOf: Self.directory.appendingPathComponent("\(name).swift"), encoding: .utf8)
        let promised = source.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { $0.hasPrefix("// → ") }
            .map { String($0.dropFirst("// → ".count)) }
        #expect(!promised.isEmpty, "\(name) promises no output")
        let outcome = try await SwitchyardProcess.run(
            executable: SwitchyardProcess.builtProduct(name),
            arguments: []
        )
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let printed = outcome.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(printed.dropLast(printed.last == "" ? 1 : 0).elementsEqual(promised), "\(outcome.stdout)")
    }
}
