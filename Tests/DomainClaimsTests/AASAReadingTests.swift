import DomainClaims
import Testing
import WebLinks

/// Reading an AASA file: odd parts read as Apple's matcher reads them, each with a diagnostic naming its place.
@Suite struct AASAReadingTests {
    static func read(_ text: String) throws -> AppSiteAssociation {
        try AppSiteAssociation(bytes: Array(text.utf8))
    }

    @Test func namesEachOddPartWithItsPointerAndPosition() throws {
        let file = try Self.read(
            """
            {"applinks": {"defaults": {"caseSensitiv": false},
              "details": [{"appIDs": ["A.b", 7], "components": [{"/": 1}, "x", {"?": {"a": true}, "exlude": true}]}]}}
            """
        )
        let found = file.diagnostics.map { "\($0.code) \($0.pointer) \($0.position?.description ?? "-")" }
        #expect(
            found == [
                "W_UNKNOWN_KEY /applinks/defaults/caseSensitiv 1:44",
                "W_NOT_STRING /applinks/details/0/appIDs/1 2:34",
                "W_NOT_STRING /applinks/details/0/components/0/~1 2:59",
                "W_WRONG_TYPE /applinks/details/0/components/1 2:63",
                "W_UNKNOWN_KEY /applinks/details/0/components/2/exlude 2:97",
                "W_QUERY_NOT_STRING /applinks/details/0/components/2/?/a 2:80",
            ]
        )
        #expect(file.details.first?.appIDs == ["A.b"])
        #expect(file.details.first?.components.count == 2)
    }

    @Test func keepsTheLastOfRepeatedKeys() throws {
        let file = try Self.read(#"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/a","/":"/b"}]}]}}"#)
        #expect(file.details.first?.components.first?.path == "/b")
        #expect(file.decision(for: "A.b", url: "https://example.com/b", domain: "example.com").outcome == .match)
    }

    @Test func defaultsFillEveryKeyAComponentLeavesOut() throws {
        let file = try Self.read(
            ##"{"applinks":{"defaults":{"percentEncoded":false,"#":"top"},"details":[{"appIDs":["A.b"],"defaults":{"caseSensitive":false},"components":[{"/":"/x"}]}]}}"##
        )
        let component = try #require(file.details.first?.components.first)
        #expect(!component.caseSensitive && !component.percentEncoded && !component.exclude)
        #expect(component.fragment == "top")
    }

    @Test func aFileThatIsNotAnObjectClaimsNothing() throws {
        let file = try Self.read("[1, 2]")
        #expect(file.details.isEmpty)
        #expect(file.diagnostics.map(\.code) == ["E_NOT_AN_OBJECT"])
        #expect(throws: DomainClaimsError.self) { try Self.read("{") }
    }

    @Test func listsEveryAppWithItsDecision() throws {
        let file = try Self.read(
            #"{"applinks":{"details":[{"appIDs":["A.b","C.d"],"components":[{"/":"/x","exclude":true}]},{"appIDs":["C.d"],"components":[{"/":"*"}]}]}}"#
        )
        let claims = file.claims(for: try Link("https://example.com/x"), domain: "example.com")
        #expect(claims.map(\.appID) == ["A.b", "C.d"])
        #expect(claims.map(\.decision.outcome) == [.exclude, .exclude])
    }

    @Test func diffDerivesLinksFromBothFilesPatterns() throws {
        let old = try Self.read(#"{"applinks":{"details":[{"appIDs":["A.b"],"components":[{"/":"/buy/*"}]}]}}"#)
        let new = try Self.read(
            #"{"applinks":{"substitutionVariables":{"f":["pizza"]},"details":[{"appIDs":["A.b"],"components":[{"/":"/buy/$(f)","exclude":true},{"/":"/buy/*"}]}]}}"#
        )
        let diff = AASADiff(old: old, new: new)
        #expect(
            diff.sampleURLs() == [
                "https://example.com/buy/", "https://example.com/buy/x1", "https://example.com/buy/pizza",
            ]
        )
        let changes = diff.changes(for: diff.sampleURLs())
        #expect(changes.map(\.url) == ["https://example.com/buy/pizza"])
        #expect(changes.first?.new == ClaimDecision(.exclude, rule: "/applinks/details/0/components/0"))
    }
}

/// `AASALinter`: what an earlier component always wins over, and the file's size.
@Suite struct AASALinterTests {
    static func codes(_ components: String) throws -> [String] {
        let file = #"{"applinks":{"details":[{"appIDs":["A.b"],"components":\#(components)}]}}"#
        return try AASALinter().lint(Array(file.utf8)).map { "\($0.code) \($0.pointer)" }
    }

    @Test func findsComponentsAnEarlierOneCovers() throws {
        #expect(
            try Self.codes(
                #"[{"/":"/buy/*"},{"/":"/buy/42"},{"/":"/sell"},{"/":"/sell/"},{"/":"/sel*"},{"/":"/buy/*","?":"a"}]"#
            )
                == [
                    "W_UNREACHABLE /applinks/details/0/components/1",
                    "W_UNREACHABLE /applinks/details/0/components/3",
                    "W_UNREACHABLE /applinks/details/0/components/5",
                ]
        )
        #expect(
            try Self.codes(
                #"[{"/":"/buy/*","caseSensitive":false},{"/":"/buy/42"},{"?":{"a":"1"}},{"/":"/x","?":{"a":"1"}}]"#
            ) == [
                "W_UNREACHABLE /applinks/details/0/components/3"
            ]
        )
        #expect(
            try Self.codes(#"[{"/":"*"},{"/":"/x","exclude":true}]"#) == [
                "W_EXCLUSION_AFTER_CATCH_ALL /applinks/details/0/components/1"
            ]
        )
    }

    @Test func lintsThousandsOfComponentsInOnePass() throws {
        let components = (0..<5000).map { #"{"/":"/p\#($0)/*"}"# }.joined(separator: ",")
        #expect(
            try Self.codes("[\(components),{\"/\":\"/p42/x\"}]") == [
                "W_UNREACHABLE /applinks/details/0/components/5000"
            ]
        )
    }

    @Test func warnsOverAppleSizeLimit() throws {
        let padding = String(repeating: " ", count: AppSiteAssociation.maximumBytes)
        let diagnostics = try AASALinter().lint(Array(#"{"applinks":{"details":[]}}\#(padding)"#.utf8))
        #expect(diagnostics.map(\.code) == ["W_TOO_LARGE"])
    }
}
