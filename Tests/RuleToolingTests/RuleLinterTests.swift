import Foundation
import LinkMatching
import LinkResolver
import LinkRules
import RuleTooling
import SwitchyardTestSupport
import Testing

/// `lint`: each seeded defect is reported with its code, at its JSON pointer and on its line.
@Suite struct RuleLinterTests {
    /// One defect seeded into a copy of the fixture: the edit, what must be reported, and the text whose line the
    /// report must name.
    struct Defect: CustomTestStringConvertible, Sendable {
        var name: String
        var old: String
        var new: String
        var code: String
        var pointer: String
        var lineMarker: String
        /// Lines from the marker's line to the reported one (an object is reported where its `{` is).
        var lineOffset = 0
        var testDescription: String { name }
    }

    static let defects: [Defect] = [
        Defect(
            name: "wrong type",
            old: #""title": "Open Post","#,
            new: #""title": 5,"#,
            code: "E_TYPE",
            pointer: "/actions/0/title",
            lineMarker: #""title": 5"#
        ),
        Defect(
            name: "unknown key with a suggestion",
            old: #""title": "Open Note","#,
            new: #""title": "Open Note", "testInput": [],"#,
            code: "W_UNKNOWN_KEY",
            pointer: "/actions/1/testInput",
            lineMarker: #""testInput": []"#
        ),
        Defect(
            name: "param and format both",
            old: #""param": "u","#,
            new: #""param": "u", "format": "x","#,
            code: "E_CONFLICT",
            pointer: #"/redirects/https?:~1~1out\.example~1\?u="#,
            lineMarker: #""https?://out\\.example/\\?u=": {"#
        ),
        Defect(
            name: "ambiguous group reference",
            old: #""format": "pebble://post/$2","#,
            new: #""format": "pebble://post/$20","#,
            code: "W_AMBIGUOUS_GROUP_REF",
            pointer: "/actions/0/formats/0/format",
            lineMarker: "pebble://post/$20"
        ),
        Defect(
            name: "duplicate app identifier",
            old: #""identifier": "quill","#,
            new: #""identifier": "pebble","#,
            code: "E_DUPLICATE_ID",
            pointer: "/apps/1/identifier",
            lineMarker: #""name": "Quill""#,
            lineOffset: -1
        ),
        Defect(
            name: "appId naming no app",
            old: #""appId": "quill","#,
            new: #""appId": "quil","#,
            code: "E_UNKNOWN_APP",
            pointer: "/actions/1/formats/0/appId",
            lineMarker: #""appId": "quil""#
        ),
        Defect(
            name: "app no format uses",
            old: #""appId": "quill","#,
            new: #""appId": "pebble","#,
            code: "W_UNUSED_APP",
            pointer: "/apps/1",
            lineMarker: #""identifier": "quill""#,
            lineOffset: -1
        ),
        Defect(
            name: "invalid ICU regex",
            old: #""regex": "https?://quill\\.example/n/([a-z]+)","#,
            new: #""regex": "https?://quill\\.example/n/([a-z]+","#,
            code: "E_REGEX",
            pointer: "/actions/1/regex",
            lineMarker: #"quill\\.example/n/([a-z]+","#
        ),
        Defect(
            name: "template group beyond the regex",
            old: #""format": "pebble://post/$2","#,
            new: #""format": "pebble://post/$3","#,
            code: "E_GROUP_REF",
            pointer: "/actions/0/formats/0/format",
            lineMarker: "pebble://post/$3"
        ),
        Defect(
            name: "format and script2 both",
            old: #""format": "pebble://post/$2","#,
            new: #""format": "pebble://post/$2", "script2": "function process(u, c) { c(u); }","#,
            code: "W_FORMAT_AND_SCRIPT",
            pointer: "/actions/0/formats/0/format",
            lineMarker: "pebble://post/$2"
        ),
        Defect(
            name: "neither format nor script2",
            old: #""format": "pebble://post/$2","#,
            new: "",
            code: "E_MISSING",
            pointer: "/actions/0/formats/0",
            lineMarker: #""appId": "pebble""#,
            lineOffset: -1
        ),
        Defect(
            name: "testResults length",
            old: "\"pebble://post/42\",\n",
            new: "",
            code: "E_TEST_LENGTH",
            pointer: "/actions/0/formats/0/testResults",
            lineMarker: #""testResults": ["#
        ),
        Defect(
            name: "stale test input",
            old: #""https://www.pebble.example/post/7?ref=home""#,
            new: #""https://www.pebble.example/posts/7?ref=home""#,
            code: "E_STALE_TEST",
            pointer: "/actions/0/testInputs/1",
            lineMarker: "pebble.example/posts/7"
        ),
        Defect(
            name: "script2 without process",
            old: "function process(url, completionHandler)",
            new: "function handle(url, completionHandler)",
            code: "E_NO_PROCESS",
            pointer: "/actions/1/formats/0/script2",
            lineMarker: "function handle"
        ),
        Defect(
            name: "script2 syntax error",
            old: "completionHandler('quill://note?id=' + id);",
            new: "completionHandler('quill://note?id=' + id;",
            code: "E_SCRIPT_SYNTAX",
            pointer: "/actions/1/formats/0/script2",
            lineMarker: "function process"
        ),
        Defect(
            name: "redirect shadowed on its own test",
            old: #""https?://go\\.example/(.+)": {"#,
            new:
                #""https?://out\\.example/(.*)": {"format": "https://b.example/$1", "tests": {"https://out.example/?u=https%3A%2F%2Fa.example%2F": "https://b.example/"}}, "https?://go\\.example/(.+)": {"#,
            code: "W_REDIRECT_SHADOWED",
            pointer:
                "/redirects/https?:~1~1out\\.example~1(.*)/tests/https:~1~1out.example~1?u=https%3A%2F%2Fa.example%2F",
            lineMarker: #""https?://out\\.example/(.*)""#
        ),
        Defect(
            name: "output scheme the app does not declare",
            old: #""format": "pebble://post/$2","#,
            new: #""format": "pebbles://post/$2","#,
            code: "W_SCHEME_MISMATCH",
            pointer: "/actions/0/formats/0/format",
            lineMarker: "pebbles://"
        ),
        Defect(
            name: "empty regex",
            old: #""regex": "(https?://.+)","#,
            new: #""regex": "","#,
            code: "E_EMPTY_REGEX",
            pointer: "/browsers/0/regex",
            lineMarker: #""regex": """#
        ),
        Defect(
            name: "template producing a javascript: URL",
            old: #""format": "lantern://open?url=$1","#,
            new: #""format": "javascript:alert($1)","#,
            code: "E_FORBIDDEN_SCHEME",
            pointer: "/browsers/0/format",
            lineMarker: "javascript:alert"
        ),
        Defect(
            name: "action without formats",
            old: "\"formats\": [\n                {\n                    \"appId\": \"quill\",",
            new: "\"formatz\": [\n                {\n                    \"appId\": \"quill\",",
            code: "E_MISSING",
            pointer: "/actions/1",
            lineMarker: #""title": "Open Note""#,
            lineOffset: -1
        ),
        Defect(
            name: "nested repetition",
            old: #""regex": "https?://quill\\.example/n/([a-z]+)","#,
            new: #""regex": "https?://quill\\.example/n/(([a-z]+)+)","#,
            code: "W_REDOS_SUSPECT",
            pointer: "/actions/1/regex",
            lineMarker: "(([a-z]+)+)"
        ),
        Defect(
            name: "store id of the wrong type",
            old: #""storeId": 100000002,"#,
            new: #""storeId": true,"#,
            code: "E_TYPE",
            pointer: "/apps/1/storeId",
            lineMarker: #""storeId": true"#
        ),
        Defect(
            name: "section of the wrong type",
            old: #""previews": ["#,
            new: #""previews": 3, "previewz": ["#,
            code: "E_TYPE",
            pointer: "/previews",
            lineMarker: #""previews": 3"#
        ),
        Defect(
            name: "unknown platform",
            old: #""new": true"#,
            new: #""new": true, "platform": "watch""#,
            code: "W_UNKNOWN_PLATFORM",
            pointer: "/apps/0/platform",
            lineMarker: #""platform": "watch""#
        ),
        Defect(
            name: "duplicate browser identifier",
            old: "    ],\n    \"previews\"",
            new:
                "    , {\"identifier\": \"lantern\", \"name\": \"L2\", \"scheme\": \"l2\", \"regex\": \".+\", \"format\": \"l2:$0\"}],\n    \"previews\"",
            code: "E_DUPLICATE_ID",
            pointer: "/browsers/1/identifier",
            lineMarker: "\"L2\""
        ),
        Defect(
            name: "preview script syntax error",
            old: #""format": "https://img.pebble.example/$1.jpg""#,
            new: ##""script2": "function process(u, c) { c(u""##,
            code: "E_SCRIPT_SYNTAX",
            pointer: "/previews/0/script2",
            lineMarker: ##""script2": "function process(u, c) { c(u""##
        ),
    ]

    @Test func theFixtureIsClean() throws {
        let report = RuleLinter().lint(try ToolingFixture.loaded())
        #expect(report.diagnostics.isEmpty, "\(report.diagnostics)")
    }

    @Test(arguments: defects)
    func reportsTheSeededDefect(_ defect: Defect) throws {
        let text = try ToolingFixture.seeded(defect.old, defect.new)
        let report = RuleLinter().lint(Array(text.utf8), file: "fixture.json")
        let found = report.diagnostics(withCode: defect.code)
        let match = try #require(
            found.first { $0.pointer == defect.pointer },
            "\(defect.code) at \(defect.pointer) not in \(report.diagnostics.map(\.description))"
        )
        let line = try #require(ToolingFixture.line(of: defect.lineMarker, in: text))
        #expect(match.position?.line == line + defect.lineOffset, "\(match.description)")
        #expect(match.file == "fixture.json")
        #expect(match.description.hasPrefix("fixture.json:\(line + defect.lineOffset):"))
        #expect(match.severity == (defect.code.hasPrefix("E_") ? .error : .warning))
    }

    @Test func distinctDefectsCoverTwentyCodes() {
        #expect(Set(Self.defects.map { "\($0.code) \($0.pointer)" }).count == Self.defects.count)
        #expect(Set(Self.defects.map(\.code)).count >= 20)
    }

    @Test func unknownKeySuggestsTheKnownOne() throws {
        let text = try ToolingFixture.seeded(#""title": "Open Note","#, #""title": "Open Note", "testInput": [],"#)
        let report = RuleLinter().lint(Array(text.utf8), file: "fixture.json")
        #expect(
            report.diagnostics(withCode: "W_UNKNOWN_KEY").first?.message.contains(#"did you mean "testInputs"?"#)
                == true
        )
    }

    @Test func invalidJSONIsOneErrorWithItsPlace() throws {
        let text = try ToolingFixture.seeded(#""name": "Quill","#, #""name": "Quill""#)
        let report = RuleLinter().lint(Array(text.utf8), file: "fixture.json")
        #expect(report.errorCount == 1)
        let diagnostic = try #require(report.diagnostics.first)
        #expect(diagnostic.code == "E_JSON_SYNTAX")
        #expect(diagnostic.position?.line == ToolingFixture.line(of: #""scheme": "quill""#, in: text))
    }

    @Test func everyDefectAtOnceIsReportedInOnePass() throws {
        var text = ToolingFixture.manifest
        let names = [
            "wrong type", "template group beyond the regex", "stale test input", "duplicate browser identifier",
        ]
        for defect in Self.defects where names.contains(defect.name) {
            text = text.replacingOccurrences(of: defect.old, with: defect.new)
        }
        let report = RuleLinter().lint(Array(text.utf8), file: "fixture.json")
        #expect(
            Set(report.diagnostics.map(\.code)).isSuperset(of: [
                "E_TYPE", "E_GROUP_REF", "E_STALE_TEST", "E_DUPLICATE_ID",
            ])
        )
        // In file order.
        let offsets = report.diagnostics.compactMap(\.position?.offset)
        #expect(offsets == offsets.sorted())
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func findsTheStaleTestsOfTheRealManifestAndNoFalseErrors() throws {
        let url = try #require(SharedData.url("openerManifest-v5.json"))
        let report = RuleLinter().lint(contentsOf: url)
        let errors = report.diagnostics.filter { $0.severity == .error }
        // The Tidal inputs of the song.link action: its regex no longer matches them.
        #expect(errors.map(\.code) == ["E_STALE_TEST", "E_STALE_TEST"], "\(errors)")
        #expect(errors.map(\.pointer) == ["/actions/218/testInputs/1", "/actions/218/testInputs/3"])
        #expect(errors.allSatisfy { $0.message.contains("tidal.com") })
        // The Webex rule's nested repetition is a real risk and is reported; the common (\w+\.)* shape is not.
        let redos = report.diagnostics(withCode: "W_REDOS_SUSPECT").map(\.pointer)
        #expect(redos.contains("/actions/346/regex"))
        #expect(!redos.contains("/actions/21/regex"))
    }
}
