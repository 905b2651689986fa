import Foundation
import SwitchyardTestSupport
import Testing

@testable import switchyard

/// `switchyard predict`: the conformance protocol over the project's whole case table (in process, and the built
/// binary a line at a time), and `predict URL --device FILE` over the same cases, its text, its JSON and its refusals.
@Suite struct PredictCommandTests {
    @Test func answersTheWholeTableThroughTheProtocol() async throws {
        let directory = try TemporaryDirectory()
        let cases = PredictionCases.all
        // Bad lines in the middle are answered, and the next lines still are.
        var lines = cases.map(\.request)
        let errors = PredictionCases.errors
        let middle = lines.count / 2
        lines.insert(contentsOf: errors.map(\.request) + [""], at: middle)
        let input = try directory.write(lines.joined(separator: "\n") + "\n", named: "requests.jsonl")
        let outcome = await InProcessCommand.run(["predict", "--protocol", "--input", input])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        var answers = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(answers.count == cases.count + errors.count)
        let bad = answers[middle..<middle + errors.count]
        answers.removeSubrange(middle..<middle + errors.count)
        for (error, answer) in zip(errors, bad) {
            #expect(answer.hasPrefix(error.answerPrefix), "\(error.name): \(answer)")
        }
        for (testCase, answer) in zip(cases, answers) {
            #expect(answer == testCase.answer, "\(testCase.name)")
        }
    }

    @Test(arguments: PredictionCases.all)
    func theProtocolAnswersEachCase(_ testCase: PredictionCase) async {
        #expect(await PredictProtocol.answer(testCase.request) == testCase.answer)
    }

    @Test(arguments: PredictionCases.errors)
    func theProtocolAnswersABadRequestWithTheError(_ error: PredictionErrorCase) async {
        let answer = await PredictProtocol.answer(error.request)
        #expect(answer.hasPrefix(error.answerPrefix), "\(answer)")
        #expect(answer.hasSuffix("\"}"))
    }

    /// The built binary on standard input: each answer is written as soon as its line is read.
    @Test func theBinaryAnswersEachLineAsItArrives() async throws {
        let process = try InteractiveSwitchyard(["predict", "--protocol"])
        for testCase in [PredictionCases.all[0], PredictionCases.all.last!] {
            try process.write(testCase.request + "\n")
            #expect(await process.readLine() == testCase.answer)
        }
        try process.write("{\"id\":7}\n")
        #expect(
            await process.readLine() == #"{"id":7,"error":"the request has no \"link\": add the link that is tapped"}"#
        )
        try process.closeInput()
        #expect(await process.readLine() == nil)
        let ended = try await process.finish()
        #expect(ended.status == 0, "\(ended.stderr)")
    }

    /// Every case that gives no files, through `predict URL --device FILE --json --offline`.
    @Test(arguments: PredictionCases.all.filter { $0.files == nil })
    func predictGivesTheSameAnswerForTheDeviceFile(_ testCase: PredictionCase) async throws {
        let directory = try TemporaryDirectory()
        let device = try directory.write(testCase.deviceFile, named: "device.json")
        let outcome = await InProcessCommand.run(["predict", testCase.link, "--device", device, "--json", "--offline"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(document["opens"] as? String == testCase.opens)
        #expect(document["candidates"] as? [String] == testCase.candidates)
        let reasons = try #require(document["reasons"] as? [[String: Any]])
        #expect(reasons.allSatisfy { $0["rule"] is String && $0["text"] is String })
    }

    @Test func predictPrintsTheOutcomeTheCandidatesAndTheReasons() async throws {
        let directory = try TemporaryDirectory()
        let testCase = try #require(PredictionCases.all.first { $0.name.contains("verified outranks selected, even") })
        let device = try directory.write(testCase.deviceFile, named: "device.json")
        let outcome = await InProcessCommand.run(["predict", testCase.link, "--device", device])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.prefix(4) == [
                "Link:       https://a.example/x (android)", "Opens:      com.a", "Candidates: com.a", "Why:",
            ]
        )
        #expect(lines.contains("  [outranks] verified outranks selected: com.b is passed over"))
        #expect(lines.last == "  [opens] com.a is verified for a.example: it opens the link directly, with no chooser")
    }

    @Test func aBadDeviceFileIsRefusedWithItsPlace() async throws {
        let directory = try TemporaryDirectory()
        let device = try directory.write(
            "{\"platform\": \"android\",\n \"apps\": [{\"package\": \"com.a\", \"enabled\": 1}]}",
            named: "device.json"
        )
        let outcome = await InProcessCommand.run(["predict", "https://a.example/", "--device", device])
        #expect(outcome.status == 2)
        #expect(
            outcome.stderr == "\(device):2:43: error: /apps/0/enabled: expected true or false, found a number\n",
            "\(outcome.stderr)"
        )
        let missing = await InProcessCommand.run(["predict", "https://a.example/"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("add --device FILE"))
        let both = await InProcessCommand.run(["predict", "--protocol", "https://a.example/"])
        #expect(both.status == 2)
        let link = await InProcessCommand.run(["predict", "https://exa mple.com/", "--device", device])
        #expect(link.status == 2)
    }

    @Test func explainShowsThePredictionForTheLinkItExplains() async throws {
        let directory = try TemporaryDirectory()
        let testCase = try #require(
            PredictionCases.all.first { $0.name.contains("a verified app opens the link directly") }
        )
        let device = try directory.write(testCase.deviceFile, named: "device.json")
        let text = await InProcessCommand.run(["explain", testCase.link, "--offline", "--device", device])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdout.contains("On the device:\n  Link:       https://a.example/x (android)\n  Opens:      com.a\n"),
            "\(text.stdout)"
        )
        let json = await InProcessCommand.run(["explain", testCase.link, "--offline", "--device", device, "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["openings"] is [Any], "the resolution document is kept")
        let predictions = try #require(document["predictions"] as? [[String: Any]])
        #expect(predictions.map { $0["opens"] as? String } == ["com.a"])
        let bad = await InProcessCommand.run([
            "explain", testCase.link, "--offline", "--device", directory.url.path + "/none.json",
        ])
        #expect(bad.status == 2)
    }
}
