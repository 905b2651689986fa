import Foundation
import LinkResolver
import LinkRules
import Testing

/// `resolve --batch`: output line N is input line N, with `"line": N`; blank and overlong lines; the exit status;
/// and each result written as soon as its line is resolved.
@Suite struct BatchTests {
    static func documents(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func everyInputLineHasItsNumberedOutputLine() async throws {
        let directory = try TemporaryDirectory()
        let overlong = "https://x.example/" + String(repeating: "a", count: 100_000)
        let batch = try directory.write(
            ["https://twitter.com/jack", "", "ftp://a.example/", "   ", overlong, "https://twitter.com/jack"]
                .joined(separator: "\n") + "\n",
            named: "links.txt"
        )
        let output = await InProcessCommand.run(["resolve", "--offline", "--no-scripts", "--batch", batch])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty)
        let documents = try Self.documents(output.stdout)
        #expect(documents.count == 6)
        #expect(documents.map { $0["line"] as? Int } == [1, 2, 3, 4, 5, 6])
        #expect(documents.allSatisfy { $0["version"] as? String == SwitchyardVersion.current })
        #expect(documents[0]["openings"] != nil && documents[5]["openings"] != nil)
        func code(_ index: Int) -> String? { (documents[index]["error"] as? [String: Any])?["code"] as? String }
        #expect(
            [code(1), code(2), code(3), code(4)] == ["E_EMPTY_INPUT", "E_NOT_WEB_LINK", "E_EMPTY_INPUT", "E_TOO_LONG"]
        )
        // The overlong line is echoed as a prefix with its length, not whole.
        let echoed = try #require(documents[4]["input"] as? String)
        #expect(echoed == "https://x.example/" + String(repeating: "a", count: 82) + "… (truncated: 100018 bytes)")
        #expect(output.stdout.utf8.count < 10_000)
    }

    /// A line longer than the link limit but short enough to be kept is refused by the parser, and echoed the same way.
    @Test func aRefusalForLengthNeverEchoesTheWholeLine() async throws {
        let directory = try TemporaryDirectory()
        let batch = try directory.write("https://x.example/" + String(repeating: "b", count: 9000), named: "long.txt")
        let output = await InProcessCommand.run(["resolve", "--offline", "--batch", batch])
        let document = try #require(try Self.documents(output.stdout).first)
        #expect(
            document["input"] as? String == "https://x.example/" + String(repeating: "b", count: 82)
                + "… (truncated: 9018 bytes)"
        )
        #expect(
            (document["error"] as? [String: Any])?["message"] as? String
                == "the link has 9018 bytes, more than the limit of 8192"
        )
    }

    /// 1 when every non-blank line was refused, 0 otherwise (blank lines count for neither).
    @Test(
        arguments: [
            (["ftp://a.example/", "", "not a link"], Int32(1)),
            (["ftp://a.example/", "https://twitter.com/jack"], Int32(0)),
            (["", "  "], Int32(0)),
            ([String](), Int32(0)),
        ] as [([String], Int32)]
    )
    func exitsOneOnlyWhenEveryLineFailed(_ lines: [String], status: Int32) async throws {
        let directory = try TemporaryDirectory()
        let batch = try directory.write(lines.joined(separator: "\n"), named: "links.txt")
        let output = await InProcessCommand.run(["resolve", "--offline", "--no-scripts", "--batch", batch])
        #expect(output.status == status, "\(output.stdout)\(output.stderr)")
        #expect(try Self.documents(output.stdout).count == lines.count)
    }

    /// Standard input through the built binary: the first result arrives while the input is still open.
    @Test func standardInputIsAnsweredLineByLine() async throws {
        let process = try InteractiveSwitchyard(["resolve", "--offline", "--no-scripts", "--batch", "-"])
        try process.write("https://twitter.com/jack\n")
        let first = try #require(await process.readLine(), "no result for the first line while the input was open")
        #expect(first.contains(#""line":1"#) && first.contains(#""input":"https://twitter.com/jack""#), "\(first)")
        try process.write("ftp://a.example/\n\n")
        let second = try #require(await process.readLine())
        #expect(second.contains(#""line":2"#) && second.contains("E_NOT_WEB_LINK"), "\(second)")
        let third = try #require(await process.readLine())
        #expect(third.contains(#""line":3"#) && third.contains("E_EMPTY_INPUT"), "\(third)")
        try process.closeInput()
        #expect(await process.readLine() == nil)
        let (status, stderr) = try await process.finish()
        #expect(status == 0, "\(stderr)")
    }
}
