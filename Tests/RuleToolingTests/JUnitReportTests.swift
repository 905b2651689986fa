import Foundation
import LinkMatching
import LinkResolver
import RuleTooling
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// JUnit output is well-formed XML that lists every case, with failures and skips marked.
@Suite struct JUnitReportTests {
    /// Counts elements while parsing; a parse error means the document is not well-formed.
    final class ElementCounter: NSObject, XMLParserDelegate {
        var counts: [String: Int] = [:]
        var failureMessages: [String] = []

        func parser(
            _ parser: XMLParser,
            didStartElement name: String,
            namespaceURI: String?,
            qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            counts[name, default: 0] += 1
            if name == "failure" { failureMessages.append(attributes["message"] ?? "") }
        }
    }

    static func parse(_ xml: String) throws -> ElementCounter {
        let parser = XMLParser(data: Data(xml.utf8))
        let counter = ElementCounter()
        parser.delegate = counter
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        return counter
    }

    @Test func listsEveryCaseAsWellFormedXML() throws {
        let results = [
            RuleTestResult(
                kind: .format,
                status: .passed,
                location: "/actions/0/formats/0/testResults/0",
                input: "https://a.example/?x=1&y=<2>",
                expected: "a://1",
                actual: "a://1"
            ),
            RuleTestResult(
                kind: .format,
                status: .failed,
                location: "/actions/0/formats/0/testResults/1",
                input: "https://a.example/\u{1}\"'",
                expected: "a://2",
                actual: nil,
                reason: "the regex does not match the input"
            ),
            RuleTestResult(
                kind: .script,
                status: .skipped,
                location: "/actions/1/formats/0/testResults/0",
                input: "https://b.example/",
                expected: "b://",
                actual: nil,
                reason: "needs network"
            ),
            RuleTestResult(
                kind: .redirect,
                status: .passed,
                location: "/redirects/x/tests/y",
                input: "y",
                expected: "z",
                actual: "z"
            ),
        ]
        let xml = JUnitReport.xml(
            for: RuleTestReport(results: results),
            name: "rules & more.json",
            durationSeconds: 0.25
        )
        let counter = try Self.parse(xml)
        #expect(counter.counts["testcase"] == 4)
        #expect(counter.counts["testsuite"] == 3)
        #expect(counter.counts["failure"] == 1)
        #expect(counter.counts["skipped"] == 1)
        #expect(counter.failureMessages == ["the regex does not match the input"])
        #expect(
            xml.contains(#"<testsuites name="rules &amp; more.json" tests="4" failures="1" skipped="1" time="0.25">"#)
        )
    }

    @Test func progressLineShowsTheBarAndCounts() {
        let line = ProgressLine(width: 10)
        #expect(
            line.render(done: 5, total: 10, passed: 4, failed: 1, skipped: 0)
                == "[#####.....] 5/10  4 passed  1 failed  0 skipped"
        )
        #expect(line.render(done: 0, total: 0, passed: 0, failed: 0, skipped: 0).hasPrefix("[##########] 0/0"))
    }
}
