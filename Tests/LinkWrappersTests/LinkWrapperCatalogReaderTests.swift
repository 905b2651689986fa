import LinkWrappers
import Testing
import WebLinks

/// Wrapper entries are read with a located issue for each thing wrong: the built-in catalog's reader, which a user
/// layer's `wrappers` go through too.
@Suite struct LinkWrapperCatalogReaderTests {
    /// A catalog of the entries in `entries` (a JSON array); nil when one has an error.
    static func catalog(_ entries: String) throws -> LinkWrapperCatalog? {
        let read = try WrapperCatalogReader(file: "test.json").read(
            Array("{\"switchyardLinkWrappers\": 1, \"wrappers\": \(entries)}".utf8)
        )
        return read.issues.contains { $0.severity == .error } ? nil : read.catalog
    }

    /// The issues of one entry.
    static func issues(_ entry: String) throws -> [WrapperIssue] {
        try WrapperCatalogReader(file: "test.json").read(
            Array("{\"switchyardLinkWrappers\": 1,\n\"wrappers\": [\n\(entry)]}".utf8)
        ).issues
    }

    @Test(arguments: [
        (#""decode": "query", "parameters": ["q", "url"]"#, WrapperDecoding.query(["q", "url"])),
        (#""decode": "proofpoint-v2", "parameters": ["u"]"#, .proofpointV2(parameter: "u")),
        (#""decode": "proofpoint-v3""#, .proofpointV3),
        (#""decode": "last-path-segment""#, .lastPathSegment),
        (#""decode": "base64", "parameters": ["u"]"#, .base64(parameter: "u")),
        (#""decode": "opaque""#, .opaque),
    ])
    func readsEveryDecoding(_ json: String, _ decoding: WrapperDecoding) throws {
        let catalog = try #require(
            try Self.catalog(#"[{"id": "x", "name": "X", "hosts": ["*.x.example"], "paths": ["/**"], \#(json)}]"#)
        )
        #expect(catalog.wrappers.first?.decoding == decoding)
        #expect(catalog.wrappers.first?.pointer == "/wrappers/0")
    }

    @Test(arguments: [
        (
            #"{"id": "x", "name": "X", "hosts": ["x.example"], "paths": ["/"], "decode": "base65", "parameters": ["u"]}"#,
            "E_WRAPPER_DECODE", "/wrappers/0/decode",
            "\"decode\" is \"base65\", which is not a decoding: use one of query, proofpoint-v2, proofpoint-v3, last-path-segment, base64, opaque, page; did you mean \"base64\"?"
        ),
        (
            #"{"id": "x", "name": "X", "hosts": ["x.example"], "paths": ["/"], "decode": "query"}"#,
            "E_MISSING", "/wrappers/0",
            "\"decode\": \"query\" needs \"parameters\", the query parameter that holds the link"
        ),
        (
            #"{"id": "x", "name": "X", "hosts": ["x.example"], "paths": ["/"], "decode": "opaque", "parameters": ["u"]}"#,
            "E_CONFLICT", "/wrappers/0/parameters",
            "\"decode\": \"opaque\" reads no query parameter: remove \"parameters\""
        ),
        (
            #"{"id": "x", "name": "X", "hosts": ["x.example"], "paths": ["/"], "decode": "base64", "parameters": ["u", "v"]}"#,
            "E_CONFLICT", "/wrappers/0/parameters",
            "\"decode\": \"base64\" reads one query parameter; only \"query\" tries several in turn"
        ),
        (
            #"{"id": "x", "name": "X", "hosts": ["*"], "paths": ["/"], "decode": "opaque"}"#,
            "E_PATTERN", "/wrappers/0/hosts/0",
            "\"*\" names no host: a pattern needs at least one label without \"*\" or \"{tld}\""
        ),
        (
            #"{"id": "x", "name": "X", "hosts": ["*.{tld}"], "paths": ["/"], "decode": "opaque"}"#,
            "E_PATTERN", "/wrappers/0/hosts/0",
            "\"*.{tld}\" names no host: a pattern needs at least one label without \"*\" or \"{tld}\""
        ),
        (
            #"{"id": "x", "name": "X", "hosts": ["https://x.example/"], "paths": ["/"], "decode": "opaque"}"#,
            "E_PATTERN", "/wrappers/0/hosts/0",
            "a host pattern is a host, not a URL or a path: write the host alone, as in \"urldefense.com\""
        ),
        (
            #"{"id": "x", "name": "X", "hosts": ["a.*.example"], "paths": ["/"], "decode": "opaque"}"#,
            "E_PATTERN", "/wrappers/0/hosts/0", "\"*\" alone may only be the first label, as in \"*.example.com\""
        ),
        (
            #"{"id": "x", "name": "X", "hosts": ["{tld}.example"], "paths": ["/"], "decode": "opaque"}"#,
            "E_PATTERN", "/wrappers/0/hosts/0",
            "\"{tld}\" may only be the last label after a name, as in \"www.google.{tld}\""
        ),
        (
            #"{"id": "x", "name": "X", "hosts": ["bücher.example"], "paths": ["/"], "decode": "opaque"}"#,
            "E_PATTERN", "/wrappers/0/hosts/0",
            "the label \"bücher\" contains \"ü\": a host pattern has ASCII letters, digits, \"-\" and \"*\" (write international names in their xn-- form)"
        ),
        (
            #"{"id": "x", "name": "X", "hosts": ["x.example"], "paths": ["url"], "decode": "opaque"}"#,
            "E_PATTERN", "/wrappers/0/paths/0", "a path pattern starts with \"/\", as in \"/url\""
        ),
        (
            #"{"id": "x", "name": "X", "hosts": ["x.example"], "paths": ["/a/**/b"], "decode": "opaque"}"#,
            "E_PATTERN", "/wrappers/0/paths/0", "\"**\" may only end a path pattern, as in \"/v3/__**\""
        ),
        (
            #"{"id": "x", "name": "X", "hosts": ["x.example"], "paths": ["/url?q=1"], "decode": "opaque"}"#,
            "E_PATTERN", "/wrappers/0/paths/0",
            "the path pattern \"/url?q=1\" contains \"?\": write the path as a link has it, without query, fragment or escapes"
        ),
        (
            #"{"id": "x", "name": "X", "hosts": [], "paths": ["/"], "decode": "opaque"}"#,
            "E_TYPE", "/wrappers/0/hosts", "\"hosts\" must be a non-empty array of strings, not an empty array"
        ),
        (
            #"{"id": "x", "name": "X", "hosts": "x.example", "paths": ["/"], "decode": "opaque"}"#,
            "E_TYPE", "/wrappers/0/hosts", "\"hosts\" must be a non-empty array of strings, not a string"
        ),
        (
            #"{"id": "x", "name": "X", "hosts": ["x.example"], "decode": "opaque"}"#,
            "E_MISSING", "/wrappers/0", "the wrapper entry has no \"paths\""
        ),
        (
            #"{"id": "my gateway", "name": "X", "hosts": ["x.example"], "paths": ["/"], "decode": "opaque"}"#,
            "E_WRAPPER_ID", "/wrappers/0/id",
            "the id \"my gateway\" must be a word without spaces, such as \"my-gateway\""
        ),
        (#""gateway""#, "E_TYPE", "/wrappers/0", "a wrapper entry must be an object, not a string"),
    ])
    func locatesEachErrorAndLeavesTheEntryOut(
        _ entry: String,
        _ code: String,
        _ pointer: JSONPointer,
        _ message: String
    )
        throws
    {
        let issues = try Self.issues(entry)
        let errors = issues.filter { $0.severity == .error }
        #expect(errors.map(\.code) == [code], "\(issues)")
        #expect(errors.first?.pointer == pointer)
        #expect(errors.first?.message == message)
        #expect(errors.first?.position?.line == 3, "\(issues)")
        #expect(errors.first?.description.hasPrefix("test.json:3:") == true)
        #expect(try Self.catalog("[\(entry)]") == nil)
    }

    @Test func warnsOfUnknownAndRepeatedKeysAndKeepsTheEntry() throws {
        let issues = try Self.issues(
            #"{"id": "x", "name": "X", "hosts": ["x.example"], "path": ["/"], "paths": ["/"], "decode": "opaque", "name": "Y"}"#
        )
        #expect(issues.map(\.code) == ["W_UNKNOWN_KEY", "W_DUPLICATE_KEY"])
        #expect(issues.first?.message == "unknown key \"path\" is ignored; did you mean \"paths\"?")
        #expect(issues.map(\.pointer) == ["/wrappers/0/path", "/wrappers/0/name"])
        let catalog = try #require(
            try Self.catalog(
                #"[{"id": "x", "name": "X", "hosts": ["x.example"], "path": ["/"], "paths": ["/"], "decode": "opaque"}]"#
            )
        )
        #expect(catalog.wrappers.map(\.name) == ["X"])
    }

    @Test func aRepeatedIdentifierIsAnError() throws {
        let read = try WrapperCatalogReader(file: "test.json").read(
            Array(
                #"""
                {"switchyardLinkWrappers": 1, "wrappers": [
                  {"id": "x", "name": "X", "hosts": ["x.example"], "paths": ["/"], "decode": "opaque"},
                  {"id": "x", "name": "Y", "hosts": ["y.example"], "paths": ["/"], "decode": "opaque"}]}
                """#.utf8
            )
        )
        #expect(read.issues.map(\.code) == ["E_DUPLICATE_WRAPPER"])
        #expect(read.issues.first?.pointer == "/wrappers/1/id")
        #expect(read.issues.first?.position?.line == 3)
        #expect(read.catalog.wrappers.map(\.name) == ["X"])
    }

    @Test(arguments: [
        ("{\"switchyardLinkWrappers\": 1, \"wrappers\": [,]}", "test.json:1:44: error: "),
        ("[]", "test.json:1:1: error: a link wrapper catalog starts with \"switchyardLinkWrappers\": 1"),
        (
            "{\"switchyardLinkWrappers\": 2, \"wrappers\": []}",
            "test.json:1:1: error: a link wrapper catalog starts with"
        ),
        ("{\"switchyardLinkWrappers\": 1}", "test.json:1:1: error: the catalog has no \"wrappers\" list"),
    ])
    func aFileThatIsNoCatalogCannotBeRead(_ text: String, _ message: String) {
        #expect {
            _ = try WrapperCatalogReader(file: "test.json").read(Array(text.utf8))
        } throws: { error in
            (error as? LinkWrapperError)?.message.hasPrefix(message) == true
        }
    }
}
