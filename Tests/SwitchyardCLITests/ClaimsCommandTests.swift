import Foundation
import SwitchyardTestSupport
import Testing

/// `switchyard claims`: the conformance protocol over the project's whole case table, what a site's files claim for
/// a link, `claims diff` and `lint --aasa`, all in process.
@Suite struct ClaimsCommandTests {
    static let association = #"""
        {"applinks": {
          "details": [{
            "appIDs": ["ABCDE12345.com.example.app"],
            "appID": "ZZZZZ99999.com.old.app",
            "components": [
              {"#": "no_universal_links", "exclude": true},
              {"/": "/buy/*"},
              {"/": "*"},
              {"/": "/private/*", "exclude": true},
              {"/": "/$(food)/*", "?": {"id": 42}}
            ]}]}}
        """#

    static let statements = #"""
        [{"relation": ["delegate_permission/common.handle_all_urls"],
          "target": {"namespace": "android_app", "package_name": "com.example",
                     "sha256_cert_fingerprints": ["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]},
          "relation_extensions": {"delegate_permission/common.handle_all_urls": {
            "dynamic_app_link_components": [{"/": "/buy/secret", "exclude": true}, {"/": "/buy/*"}]}}},
         {"include": "https://example.com/more.json"}]
        """#

    @Test func answersTheWholeConformanceTableThroughTheProtocol() async throws {
        let directory = try TemporaryDirectory()
        let cases = ClaimsConformanceCases.all
        // A bad line in the middle is answered, and the next lines still are.
        var lines = cases.map(\.request)
        lines.insert("not json", at: lines.count / 2)
        lines.insert("", at: 3)
        let input = try directory.write(lines.joined(separator: "\n") + "\n", named: "requests.jsonl")
        let outcome = await InProcessCommand.run(["claims", "--protocol", "--input", input])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        var answers = outcome.stdout.split(separator: "\n").map(String.init)
        let bad = answers.remove(at: cases.count / 2)
        #expect(bad.hasPrefix(#"{"id":null,"error":"the line is not JSON"#))
        #expect(answers.count == cases.count)
        for (testCase, answer) in zip(cases, answers) {
            #expect(answer == testCase.answer, "\(testCase.name)")
        }
    }

    /// The built binary on standard input: each answer is written as soon as its line is read, before the input ends.
    @Test func theBinaryAnswersEachLineAsItArrives() async throws {
        let process = try InteractiveSwitchyard(["claims", "--protocol"])
        let cases = Array(ClaimsConformanceCases.all.prefix(3))
        for testCase in cases {
            try process.write(testCase.request + "\n")
            #expect(await process.readLine() == testCase.answer)
        }
        try process.write("[]\n")
        #expect(await process.readLine() == #"{"id":null,"error":"the line is an array, not a JSON object"}"#)
        try process.closeInput()
        #expect(await process.readLine() == nil)
        let ended = try await process.finish()
        #expect(ended.status == 0, "\(ended.stderr)")
    }

    @Test func showsEachAppsDecisionAndRule() async throws {
        let directory = try TemporaryDirectory()
        let aasa = try directory.write(Self.association, named: "apple-app-site-association")
        let links = try directory.write(Self.statements, named: "assetlinks.json")
        let outcome = await InProcessCommand.run([
            "claims", "https://example.com/buy/secret", "--aasa", aasa, "--assetlinks", links,
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("ABCDE12345.com.example.app: match  by /applinks/details/0/components/1"))
        #expect(
            outcome.stdout.contains(
                "com.example: exclude  by /0/relation_extensions/delegate_permission~1common.handle_all_urls/dynamic_app_link_components/0"
            )
        )
        #expect(outcome.stdout.contains("note: the statement list includes https://example.com/more.json"))
        #expect(!outcome.stdout.contains("ZZZZZ99999"))

        let json = await InProcessCommand.run([
            "claims", "https://example.com/x#no_universal_links", "--aasa", aasa, "--json",
        ])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let claims = try #require(document["universalLinks"] as? [[String: Any]])
        let decision = try #require(claims.first?["decision"] as? [String: Any])
        #expect(decision["outcome"] as? String == "exclude")
        #expect(decision["rule"] as? String == "/applinks/details/0/components/0")
    }

    @Test func offlineItNeedsTheFiles() async {
        let outcome = await InProcessCommand.run(["claims", "https://example.com/buy/1", "--offline"])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("error: claims without --aasa or --assetlinks fetches the site's files"))
    }

    @Test func refusesAFileThatIsNotJSON() async throws {
        let directory = try TemporaryDirectory()
        let aasa = try directory.write("{\n  \"applinks\": [,]\n}", named: "aasa.json")
        let outcome = await InProcessCommand.run(["claims", "https://example.com/", "--aasa", aasa])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("\(aasa):2:16: error: invalid JSON"))
    }

    @Test func diffListsTheLinksThatChange() async throws {
        let directory = try TemporaryDirectory()
        let old = try directory.write(Self.association, named: "old.json")
        let new = try directory.write(
            Self.association.replacingOccurrences(
                of: #"{"/": "/buy/*"},"#,
                with: #"{"/": "/buy/*", "exclude": true},"#
            ),
            named: "new.json"
        )
        let changed = await InProcessCommand.run(["claims", "diff", old, new])
        #expect(changed.status == 1, "\(changed.stderr)")
        #expect(
            changed.stdout.contains(
                "https://example.com/buy/ ABCDE12345.com.example.app: match (/applinks/details/0/components/1) -> exclude (/applinks/details/0/components/1)"
            )
        )
        let same = await InProcessCommand.run(["claims", "diff", old, old])
        #expect(same.status == 0)
        #expect(same.stdout.hasSuffix(", 0 changed decisions\n"))

        let corpus = try directory.write("https://example.com/buy/1\nhttps://example.com/help\n", named: "corpus.txt")
        let json = await InProcessCommand.run(["claims", "diff", old, new, "--corpus", corpus, "--json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["urls"] as? Int == 2)
        #expect((document["changes"] as? [[String: Any]])?.count == 1)
    }

    @Test func lintsAnAASAFile() async throws {
        let directory = try TemporaryDirectory()
        let aasa = try directory.write(Self.association, named: "apple-app-site-association")
        let outcome = await InProcessCommand.run(["lint", "--aasa", aasa])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "\(aasa):4:14: warning: \"appID\" beside \"appIDs\" is ignored (even when \"appIDs\" is empty): move its app into \"appIDs\" [W_APPID_IGNORED at /applinks/details/0/appID]"
            )
        )
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "\(aasa):9:7: warning: this exclusion comes after the catch-all at /applinks/details/0/components/2"
                )
            }
        )
        #expect(
            lines.contains { $0.hasPrefix("\(aasa):10:39: warning: the query item \"id\" is a number, not a string") }
        )
        #expect(lines.contains { $0.hasPrefix("\(aasa):10:7: warning: the variable \"food\" is neither built in") })
        #expect(
            lines.contains {
                $0.hasPrefix("\(aasa):10:7: warning: every link this component matches is decided earlier")
            }
        )
        #expect(lines.last == "\(aasa): 0 errors, 5 warnings")
    }
}
