import LinkRules
import Testing

/// A broken entry is reported with its code, JSON pointer and line, and the rest of the manifest still loads.
extension ManifestLoaderTests {
    /// One broken manifest and the diagnostic it must produce.
    struct BrokenCase: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var severity: Diagnostic.Severity
        var code: String
        var pointer: String
        var line: Int
        var testDescription: String { name }
    }

    static let brokenCases: [BrokenCase] = [
        BrokenCase(
            name: "unknown appId",
            text: """
                {
                  "apps": [{"identifier": "a", "name": "A", "scheme": "a"}],
                  "actions": [{"regex": "x",
                    "formats": [{"appId": "b", "format": "b://"}]}]
                }
                """,
            severity: .error,
            code: "E_UNKNOWN_APP",
            pointer: "/actions/0/formats/0/appId",
            line: 4
        ),
        BrokenCase(
            name: "duplicate app id",
            text: """
                {
                  "apps": [{"identifier": "a", "name": "A", "scheme": "a"},
                    {"identifier": "a", "name": "A2", "scheme": "a2"}]
                }
                """,
            severity: .error,
            code: "E_DUPLICATE_ID",
            pointer: "/apps/1/identifier",
            line: 3
        ),
        BrokenCase(
            name: "storeId beyond 64 bits",
            text: """
                {
                  "apps": [{"identifier": "a", "name": "A", "scheme": "a",
                    "storeId": 99999999999999999999}]
                }
                """,
            severity: .error,
            code: "E_RANGE",
            pointer: "/apps/0/storeId",
            line: 3
        ),
        BrokenCase(
            name: "headers as the string true",
            text: """
                {
                  "apps": [{"identifier": "a", "name": "A", "scheme": "a"}],
                  "actions": [{"regex": "x", "formats": [{"appId": "a", "format": "a://"}],
                    "headers": "true"}]
                }
                """,
            severity: .warning,
            code: "E_TYPE",
            pointer: "/actions/0/headers",
            line: 4
        ),
        BrokenCase(
            name: "platform watch",
            text: """
                {
                  "apps": [{"identifier": "a", "name": "A", "scheme": "a",
                    "platform": "watch"}]
                }
                """,
            severity: .warning,
            code: "W_UNKNOWN_PLATFORM",
            pointer: "/apps/0/platform",
            line: 3
        ),
        BrokenCase(
            name: "empty regex",
            text: """
                {
                  "apps": [{"identifier": "a", "name": "A", "scheme": "a"}],
                  "actions": [{"formats": [{"appId": "a", "format": "a://"}],
                    "regex": ""}]
                }
                """,
            severity: .error,
            code: "E_EMPTY_REGEX",
            pointer: "/actions/0/regex",
            line: 4
        ),
        BrokenCase(
            name: "neither format nor script2",
            text: """
                {
                  "apps": [{"identifier": "a", "name": "A", "scheme": "a"}],
                  "actions": [{"regex": "x", "formats": [
                    {"appId": "a"}]}]
                }
                """,
            severity: .error,
            code: "E_MISSING",
            pointer: "/actions/0/formats/0",
            line: 4
        ),
        BrokenCase(
            name: "testResults length differs from testInputs",
            text: """
                {
                  "apps": [{"identifier": "a", "name": "A", "scheme": "a"}],
                  "actions": [{"regex": "x", "testInputs": ["x1", "x2"], "formats": [{"appId": "a", "format": "a://",
                    "testResults": ["a://"]}]}]
                }
                """,
            severity: .error,
            code: "E_TEST_LENGTH",
            pointer: "/actions/0/formats/0/testResults",
            line: 4
        ),
        BrokenCase(
            name: "javascript: template",
            text: """
                {
                  "apps": [{"identifier": "a", "name": "A", "scheme": "a"}],
                  "actions": [{"regex": "(.*)", "formats": [{"appId": "a",
                    "format": " JavaScript:alert($1)"}]}]
                }
                """,
            severity: .error,
            code: "E_FORBIDDEN_SCHEME",
            pointer: "/actions/0/formats/0/format",
            line: 4
        ),
        BrokenCase(
            name: "repeated top-level key",
            text: """
                {
                  "apps": [{"identifier": "a", "name": "A", "scheme": "a"}],
                  "apps": [{"identifier": "b", "name": "B", "scheme": "b"}]
                }
                """,
            severity: .warning,
            code: "W_DUPLICATE_KEY",
            pointer: "/apps",
            line: 3
        ),
    ]

    @Test(arguments: brokenCases)
    func reportsBrokenEntriesWithCodePointerAndLine(_ broken: BrokenCase) throws {
        let loaded = try Self.load(broken.text)
        let found = loaded.diagnostics.filter { $0.code == broken.code }
        #expect(found.count == 1, "\(loaded.diagnostics)")
        let diagnostic = try #require(found.first)
        #expect(diagnostic.severity == broken.severity)
        #expect(diagnostic.pointer == broken.pointer)
        #expect(diagnostic.position?.line == broken.line)
        #expect(diagnostic.file == "inline.json")
        #expect(diagnostic.description.hasPrefix("inline.json:\(broken.line):"))
        #expect(loaded.diagnostics.count == 1, "only the one problem is reported: \(loaded.diagnostics)")
    }

    /// Found by the manifest fuzzer: the entries came from the last `apps`, while pointers such as `/apps/1` (and
    /// so the positions of diagnostics) were looked up in the first one.
    @Test func usesTheFirstOfRepeatedTopLevelKeysLikeEveryPointer() throws {
        let text = #"""
            {
              "apps": [{"identifier": "a", "name": "A", "scheme": "a"}, {"identifier": "b", "name": "B", "scheme": "b:x"}],
              "actions": [{"regex": "one", "formats": [{"appId": "a", "format": "a://1"}]}],
              "apps": [{"identifier": "c", "name": "C", "scheme": "c"}],
              "actions": []
            }
            """#
        let loaded = try Self.load(text)
        #expect(loaded.manifest.apps.map(\.identifier) == ["a"])
        #expect(loaded.manifest.actions.map(\.regex) == ["one"])
        let schemeError = try #require(loaded.errors.first { $0.code == "E_SCHEME" })
        #expect(schemeError.pointer == "/apps/1/scheme" && schemeError.position?.line == 2)
        #expect(loaded.diagnostics.filter { $0.code == "W_DUPLICATE_KEY" }.map(\.position?.line) == [4, 5])
        for pointer in loaded.manifest.apps.map(\.pointer) + loaded.manifest.actions.map(\.pointer) {
            #expect(loaded.position(of: pointer) != nil, "\(pointer)")
        }
    }

    @Test func skipsOnlyTheBrokenEntry() throws {
        let text = #"""
            {
              "apps": [{"identifier": "a", "name": "A", "scheme": "a"}, {"identifier": "b", "name": "B", "scheme": "b", "storeId": 0}],
              "actions": [
                {"regex": "one", "formats": [{"appId": "a", "format": "a://1"}, {"appId": "missing", "format": "m://"}]},
                {"regex": "", "formats": [{"appId": "a", "format": "a://2"}]},
                {"regex": "three", "formats": [{"appId": "a", "format": "javascript:x"}, {"appId": "a", "format": "a://3"}]}
              ]
            }
            """#
        let loaded = try Self.load(text)
        #expect(loaded.manifest.apps.map(\.identifier) == ["a"])
        #expect(loaded.manifest.actions.map(\.regex) == ["one", "three"])
        #expect(loaded.manifest.actions.map { $0.formats.map(\.fields.template) } == [["a://1"], ["a://3"]])
        #expect(loaded.errors.map(\.code) == ["E_RANGE", "E_UNKNOWN_APP", "E_EMPTY_REGEX", "E_FORBIDDEN_SCHEME"])
    }

    @Test(arguments: ["0", "-5", "1.5", "1e3", "99999999999999999999999999999999"])
    func rejectsStoreIdsThatAreNotPositiveIntegersWithoutTrapping(_ literal: String) throws {
        let loaded = try Self.load(
            #"{"apps": [{"identifier": "a", "name": "A", "scheme": "a", "storeId": \#(literal)}]}"#
        )
        #expect(loaded.manifest.apps.isEmpty)
        #expect(loaded.errors.map(\.code) == ["E_RANGE"])
        #expect(loaded.errors.first?.message.contains(literal) == true)
    }

    @Test func coercesTheStringTrueForHeaders() throws {
        let loaded = try Self.load(Self.brokenCases[3].text)
        #expect(loaded.manifest.actions.first?.headers == true)
    }

    @Test func keepsAnAppWithAnUnknownPlatformOnBothPlatforms() throws {
        let loaded = try Self.load(Self.brokenCases[4].text)
        #expect(loaded.manifest.apps.count == 1)
        #expect(loaded.manifest.apps.first?.platform == nil)
    }

    @Test(arguments: ["[1, 2]", #""text""#, "{}", #"{"name": "x"}"#])
    func throwsForDocumentsThatAreNotManifests(_ text: String) throws {
        let error = try #require(throws: ManifestError.self) { try Self.load(text) }
        #expect(error.code == .notAManifest)
    }

    @Test func throwsForInvalidJSONWithFileLineAndColumn() throws {
        let error = try #require(throws: ManifestError.self) { try Self.load("{\n  \"apps\": [\n") }
        #expect(error.code == .syntax)
        #expect(error.position?.line == 3)
        #expect(error.description.hasPrefix("inline.json:3:1: error:"))
    }

    @Test func throwsAnEncodingErrorForInvalidUTF8() throws {
        let bytes = Array(#"{"apps": [{"identifier": ""#.utf8) + [0xFF] + Array(#""}]}"#.utf8)
        let error = try #require(throws: ManifestError.self) { try ManifestLoader().load(bytes) }
        #expect(error.code == .encoding)
    }

    @Test func throwsForAManifestLargerThanTheLimit() throws {
        var limits = ManifestLimits()
        limits.maximumBytes = 16
        let error = try #require(throws: ManifestError.self) { try ManifestLoader(limits: limits).load(Self.v4) }
        #expect(error.code == .tooLarge)
    }
}
