import Foundation
import LinkCleaning
import LinkRules
import Testing

/// Decoding: located errors, regexes translated from JavaScript or refused with their provider and index.
@Suite struct CleaningCatalogTests {
    static func pattern(_ catalog: CleaningCatalog, _ provider: String, _ kind: CleaningRule.Kind) -> [String] {
        let found = catalog.providers.first { $0.name == provider }
        switch kind {
        case .rules: return found?.rules.map(\.icuPattern) ?? []
        case .rawRules: return found?.rawRules.map(\.icuPattern) ?? []
        default: return found.map { [$0.urlPattern.icuPattern] } ?? []
        }
    }

    @Test(arguments: [
        (#"a\/b"#, #"(?i)a\/b"#),
        (#"^x$"#, #"(?i)^x\z"#),
        (#"\d+"#, #"(?i)[0-9]+"#),
        (#"[^]"#, #"(?i)[\x{0}-\x{10FFFF}]"#),
        (#"[]"#, #"(?i)(?!)"#),
        (#"[a-z&&[b]]"#, #"(?i)[a-z\x{26}\x{26}\x{5B}b]\]"#),
        (#"(?<year>\d{4})-\k<year>"#, #"(?i)([0-9]{4})-(?:\1)"#),
        (#"x{a}"#, #"(?i)x\{a\}"#),
        (#"\Qa\z"#, #"(?i)Qaz"#),
        (#"\v."#, #"(?i)\x{B}[^\x{A}\x{D}\x{2028}\x{2029}]"#),
        (#"(?<=a)b"#, #"(?i)(?<=a)b"#),
    ])
    func translatesJavaScriptToICU(_ source: String, _ expected: String) throws {
        let quoted = String(decoding: try JSONEncoder().encode(source), as: UTF8.self)
        let json = ##"{"providers": {"p": {"urlPattern": "## + quoted + ##", "completeProvider": false}}}"##
        let catalog = try CleaningCatalog(json: json)
        #expect(catalog.diagnostics.isEmpty)
        #expect(Self.pattern(catalog, "p", .urlPattern) == [expected])
    }

    @Test func matchesWithJavaScriptMeaning() throws {
        // `\d` is ASCII, `.` is not a line terminator and `$` is the very end (ICU's `$` also matches before a final
        // line break); field names are matched case-insensitively.
        let json = #"""
            {"providers": {"p": {"urlPattern": "^https:\\/\\/a\\.example\\/x\\d", "completeProvider": false,
              "rules": ["n.me", "end"]}}}
            """#
        let cleaner = try LinkCleaner(json: json)
        let cleaned = try cleaner.clean("https://a.example/x7?name=1&NAME=2&n%0Ame=3&end%0A=4&end=5")
        #expect(cleaned.link == "https://a.example/x7?n%0Ame=3&end%0A=4")
        #expect(try cleaner.clean("https://a.example/x\u{667}?name=1").changed == false)
    }

    @Test func refusedRegexesAreReportedWithProviderAndIndexAndTheRestIsUsed() throws {
        let json = """
            {"providers": {
              "amazon": {"urlPattern": "amazon", "completeProvider": false,
                         "rules": ["ok", "\\\\u{41}", "(?i)x", "a**", "(?<=a+)b", "fine"]},
              "broken": {"urlPattern": "(", "completeProvider": false},
              "redirect": {"urlPattern": "r", "completeProvider": false, "redirections": ["no-group"]}
            }}
            """
        let catalog = try CleaningCatalog(json: json, file: "c.json")
        #expect(catalog.providers.map(\.name) == ["amazon", "redirect"])
        #expect(catalog.providers[0].rules.map(\.rule.index) == [0, 5])
        let refused = catalog.refusedPatterns
        #expect(
            refused.map(\.pointer) == [
                "/providers/amazon/rules/1", "/providers/amazon/rules/2", "/providers/amazon/rules/3",
                "/providers/amazon/rules/4", "/providers/broken/urlPattern", "/providers/redirect/redirections/0",
            ]
        )
        let first = try #require(refused.first)
        #expect(first.position == SourcePosition(line: 3, column: 30, offset: first.position?.offset ?? 0))
        #expect(
            first.description.hasPrefix("c.json:3:30: error: rules/1 of provider \"amazon\", \"\\u{41}\", is refused")
        )
        #expect(refused[3].message.contains("look-behind"))
        #expect(refused[5].message.contains("no capture group"))
    }

    @Test func structuralProblemsAreLocated() throws {
        #expect(throws: CleaningError.self) { try CleaningCatalog(json: "{\"providers\": [1]}") }
        do {
            _ = try CleaningCatalog(json: "{\n  \"providers\": {,}\n}", file: "bad.json")
            Issue.record("a syntax error was accepted")
        } catch {
            #expect(error.code == .invalidJSON)
            #expect(error.message.hasPrefix("bad.json:2:17: error: "))
        }
        let catalog = try CleaningCatalog(
            json: #"{"providers": {"a": 3, "b": {"urlPattern": "b", "rules": "x", "color": 1}}}"#
        )
        #expect(catalog.providers.map(\.name) == ["b"])
        #expect(catalog.diagnostics.map(\.code) == ["E_TYPE", "W_UNKNOWN_KEY", "E_TYPE"])
        #expect(catalog.diagnostics.map(\.pointer) == ["/providers/a", "/providers/b/color", "/providers/b/rules"])
    }

    @Test func verifiesTheSHA256() throws {
        let data = Data("abc".utf8)
        let digest = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        #expect(CleaningCatalog.sha256Hex(data) == digest)
        try CleaningCatalog.verify(data: data, sha256Hex: digest.uppercased() + "\n")
        do {
            try CleaningCatalog.verify(data: Data("abd".utf8), sha256Hex: digest)
            Issue.record("a different SHA-256 was accepted")
        } catch {
            #expect(error.code == .hashMismatch)
        }
        do {
            try CleaningCatalog.verify(data: data, sha256Hex: "not a hash")
            Issue.record("a malformed hash was accepted")
        } catch {
            #expect(error.code == .invalidHash)
        }
    }
}
