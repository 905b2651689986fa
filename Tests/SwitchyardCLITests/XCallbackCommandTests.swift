import Foundation
import Testing

/// `switchyard xcallback` and the `--param` option it shares with `choose`, in process.
@Suite struct XCallbackCommandTests {
    @Test func buildsAURLWithEncodedParametersInOrder() async {
        let output = await InProcessCommand.run([
            "xcallback", "build", "bear", "create", "--source", "Switchyard", "--param", "title=Hello World",
            "--param", "text=a=b",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "bear://x-callback-url/create?x-source=Switchyard&title=Hello%20World&text=a%3Db\n")
    }

    @Test func parsesAURLIntoJSON() async throws {
        let output = await InProcessCommand.run([
            "xcallback", "parse", "--json", "bear://x-callback-url/create?x-source=S&title=Hi&flag",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(document["scheme"] as? String == "bear")
        #expect(document["action"] as? String == "create")
        #expect(document["source"] as? String == "S")
        let parameters = try #require(document["parameters"] as? [[String: Any]])
        #expect(parameters.map { $0["name"] as? String } == ["title", "flag"])
        #expect(parameters.last?["value"] is NSNull)
    }

    /// One splitter for `--param`: a text without `=`, or with nothing before it, is bad input for both commands.
    @Test(arguments: [
        (["xcallback", "build", "bear", "create", "--param", "title"], #"error: --param "title" must be name=value"#),
        (["xcallback", "build", "bear", "create", "--param", "=x"], #"error: --param "=x" must be name=value"#),
        (
            ["choose", "--type", "twitter", "--action", "show_profile", "--param", "jack"],
            #"error: --param "jack" must be key=value"#
        ),
    ])
    func refusesAParameterWithoutANameWithStatusTwo(_ arguments: [String], message: String) async {
        let output = await InProcessCommand.run(arguments)
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        #expect(output.stderrLines == [message])
    }
}
