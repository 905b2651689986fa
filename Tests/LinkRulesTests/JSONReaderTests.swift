import LinkRules
import Testing

/// The strict JSON reader: values, member order, positions, and every documented rejection with its place.
@Suite struct JSONReaderTests {
    /// Parses `text` with the default reader.
    func parse(_ text: String) throws -> JSONNode {
        try JSONReader().parse(text)
    }

    /// The error the reader throws for `bytes` (the test fails when it parses).
    func error(for bytes: [UInt8], maximumDepth: Int = 256) throws -> JSONReaderError {
        try #require(throws: JSONReaderError.self) { try JSONReader(maximumDepth: maximumDepth).parse(bytes) }
    }

    // MARK: Values

    @Test(arguments: [
        ("null", JSONNode.Value.null),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("0", .number("0")),
        ("-12.5e+3", .number("-12.5e+3")),
        ("12345678901234567890", .number("12345678901234567890")),
        (#""a\"b\\c\/d\n""#, .string("a\"b\\c/d\n")),
        (#""\u00e9t\u00E9""#, .string("été")),
    ])
    func readsScalarValues(text: String, expected: JSONNode.Value) throws {
        #expect(try parse(text).value == expected)
    }

    @Test func readsNestedArraysAndObjects() throws {
        let node = try parse(#"{"a": [1, "x", null, {"b": false}], "c": {}}"#)
        let array = try #require(node["a"]?.elements)
        #expect(array.map(\.value).prefix(3) == [.number("1"), .string("x"), .null])
        #expect(array[3]["b"]?.value == .bool(false))
        #expect(node["c"]?.members?.isEmpty == true)
        #expect(node["missing"] == nil)
    }

    @Test func keepsObjectMembersInFileOrder() throws {
        let node = try parse(#"{"zeta": 1, "alpha": 2, "mid": 3, "beta": 4}"#)
        #expect(node.members?.map(\.key) == ["zeta", "alpha", "mid", "beta"])
    }

    @Test func firstOfRepeatedKeysIsReturnedButBothAreKept() throws {
        let node = try parse(#"{"k": 1, "k": 2}"#)
        #expect(node["k"]?.value == .number("1"))
        #expect(node.members?.count == 2)
    }

    // MARK: Positions

    @Test func recordsLineAndColumnOfMembersOnLaterLines() throws {
        let text = "{\n  \"apps\": [],\n    \"actions\": [\n      {\"regex\": \"x\"}\n    ]\n}"
        let node = try parse(text)
        let members = try #require(node.members)
        #expect(members[0].keyPosition.line == 2)
        #expect(members[0].keyPosition.column == 3)
        #expect(members[1].keyPosition.line == 3)
        #expect(members[1].keyPosition.column == 5)
        #expect(members[1].value.position.line == 3)
        #expect(members[1].value.position.column == 16)
        let regexPosition = try #require(node.position(of: "/actions/0/regex"))
        #expect(regexPosition.line == 4)
        #expect(regexPosition.column == 17)
        #expect(node.position(of: "/actions/5") == nil)
    }

    @Test func skipsAByteOrderMarkAndCountsColumnsAfterIt() throws {
        let node = try JSONReader().parse([0xEF, 0xBB, 0xBF] + Array(#"{"a": 1}"#.utf8))
        #expect(node["a"]?.value == .number("1"))
        #expect(node.position.line == 1)
        #expect(node.position.column == 1)
        #expect(node.members?.first?.keyPosition.column == 2)
    }

    @Test func columnsCountUTF8Bytes() throws {
        // "é" is two UTF-8 bytes, so the value after it starts two columns later than its character count.
        let node = try parse(#"{"é": 1}"#)
        #expect(node["é"]?.position.column == 8)
    }

    // MARK: Errors

    @Test func rejectsEmptyText() throws {
        for text in ["", "   \n  "] {
            let failure = try error(for: Array(text.utf8))
            #expect(failure.code == .syntax)
            #expect(failure.message.contains("empty"))
        }
    }

    @Test(arguments: [
        (#"{"apps": ["#, 1, 11),
        ("{\n  \"a\": 1,\n  \"b\": ", 3, 8),
        (#"{"a": "unterminated"#, 1, 7),
        (#"[1, 2"#, 1, 6),
    ])
    func rejectsTruncatedTextWithItsPosition(text: String, line: Int, column: Int) throws {
        let failure = try error(for: Array(text.utf8))
        #expect(failure.code == .syntax)
        #expect(failure.message.contains("truncated") || failure.message.contains("ends"))
        #expect(failure.position.line == line)
        #expect(failure.position.column == column)
    }

    /// Documented decision: trailing commas are syntax errors (Foundation accepts them; a validator must not).
    @Test(arguments: [("[1, 2,]", 1, 7), ("{\"a\": 1,\n}", 2, 1)])
    func rejectsTrailingCommas(text: String, line: Int, column: Int) throws {
        let failure = try error(for: Array(text.utf8))
        #expect(failure.code == .syntax)
        #expect(failure.message.contains("trailing comma"))
        #expect(failure.position.line == line)
        #expect(failure.position.column == column)
    }

    @Test(arguments: ["// comment\n{}", "{'a': 1}", "[NaN]", "{} {}", "[tru]", "[01]", "[1.]", "[-]"])
    func rejectsNonStandardSyntax(text: String) throws {
        #expect(try error(for: Array(text.utf8)).code == .syntax)
    }

    @Test func rejectsInvalidUTF8AsAnEncodingError() throws {
        let bytes = Array("{\n  \"a\": \"x".utf8) + [0xC3, 0x28] + Array("\"}".utf8)
        let failure = try error(for: bytes)
        #expect(failure.code == .encoding)
        #expect(failure.position.line == 2)
        #expect(failure.position.column == 8)
    }

    @Test func rejectsDeepNestingWithoutOverflowingTheStack() throws {
        let bytes =
            [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
            + [UInt8](repeating: UInt8(ascii: "]"), count: 100_000)
        let failure = try error(for: bytes)
        #expect(failure.code == .depth)
        #expect(failure.position.line == 1)
        #expect(failure.position.column == 257)
    }

    @Test func acceptsNestingUpToTheLimit() throws {
        let text = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        #expect(throws: Never.self) { try JSONReader().parse(text) }
        #expect(try error(for: Array(("[" + text + "]").utf8)).code == .depth)
    }

    @Test(arguments: [#"["\x"]"#, #"["\u12"]"#, #"["\u00zz"]"#, #"["\'"]"#])
    func rejectsBadEscapes(text: String) throws {
        let failure = try error(for: Array(text.utf8))
        #expect(failure.code == .syntax)
        #expect(failure.position.line == 1)
    }

    @Test func rejectsRawControlCharactersInStrings() throws {
        let failure = try error(for: Array("[\"a\u{01}b\"]".utf8))
        #expect(failure.code == .syntax)
        #expect(failure.message.contains("control character"))
    }

    @Test func decodesSurrogatePairs() throws {
        #expect(try parse(#"["\ud83d\ude00"]"#).elements?.first?.stringValue == "😀")
        #expect(try parse(#"["a\uD834\uDD1Eb"]"#).elements?.first?.stringValue == "a𝄞b")
    }

    @Test(arguments: [#"["\ud83d"]"#, #"["\ud83dx"]"#, #"["\ude00"]"#, #"["\ud83d\u0041"]"#])
    func rejectsUnpairedSurrogates(text: String) throws {
        #expect(try error(for: Array(text.utf8)).code == .encoding)
    }
}
