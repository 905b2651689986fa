import Foundation
import LinkScripts
import Synchronization
import Testing

/// A network that answers every URL with a JSON document naming it, and counts what it was asked.
final class CountingNetwork: ScriptNetwork {
    private let asked = Mutex<[String]>([])

    var requests: [String] { asked.withLock { $0 } }

    private let record = ScriptAnswers()

    func get(_ url: String, deadline: ContinuousClock.Instant) async throws(ScriptNetworkError) -> String {
        asked.withLock { $0.append(url) }
        return try await record.keep(url) { #"{"link": "app://\#(url.count)"}"# }
    }

    func answer(to url: String) -> Result<String, ScriptNetworkError>? {
        record.answer(to: url)
    }
}

/// A script whose first request has followed from its input the same way for a few runs has that answer fetched
/// before it runs: one run instead of two, no request it does not make, and the same output.
@Suite struct RequestForecastTests {
    /// Predictable, but not certain from its source (`RequestPrologue` does not read `url.trim()`).
    static let api = """
        function process(url, done) {
          var answer = jsonRequest('https://api.example/links?url=' + encodeURIComponent(url.trim()) + '&v=1');
          done(answer == null ? null : answer.link);
        }
        """

    func runner(predicts: Bool = true) -> ScriptRunner {
        ScriptRunner(configuration: ScriptConfiguration(timeLimit: .seconds(5), predictsRequests: predicts))
    }

    @Test func aConsistentScriptRunsOnceAfterAFewRuns() async throws {
        let runner = runner()
        let network = CountingNetwork()
        let script = try runner.compile(Self.api, kind: .script2, name: "/actions/0/formats/0")
        var runs: [Int] = []
        for index in 0..<8 {
            let input = "https://music.example/track/\(index)?a=b c"
            let result = await runner.run(script, input: input, network: network)
            let expected =
                "https://api.example/links?url=https%3A%2F%2Fmusic.example%2Ftrack%2F\(index)%3Fa%3Db%20c&v=1"
            #expect(result.requests == [expected])
            #expect(try result.output.get() == "app://\(expected.count)")
            runs.append(result.runs)
        }
        // Three runs teach the forecast; every later one has its answer at hand.
        #expect(runs == [2, 2, 2, 1, 1, 1, 1, 1])
        // One request per input: none fetched and left unused.
        #expect(network.requests.count == 8)
        #expect(Set(network.requests).count == 8)
    }

    @Test func withoutForecastsEveryRunWaitsForItsAnswer() async throws {
        let runner = runner(predicts: false)
        let network = CountingNetwork()
        let script = try runner.compile(Self.api, kind: .script2, name: "/actions/0/formats/0")
        for index in 0..<6 {
            #expect(await runner.run(script, input: "https://m.example/\(index)", network: network).runs == 2)
        }
    }

    /// A script that asks for something only for some inputs (Opener's Safari script fetches only Apple News links)
    /// costs at most one request it did not make: after one surprise it needs twice the streak, which this one never
    /// shows again.
    @Test func aScriptThatSometimesAsksNothingIsNotForecast() async throws {
        let runner = runner()
        let network = CountingNetwork()
        let script = try runner.compile(
            """
            function process(url, done) {
              if (url.indexOf('news') < 0) { done(null); return; }
              done(jsonRequest(url).link);
            }
            """,
            kind: .script2,
            name: "/browsers/0"
        )
        var asked = 0
        for index in 0..<40 {
            let news = index % 4 != 3
            let result = await runner.run(
                script,
                input: "https://\(news ? "news" : "other").example/\(index)",
                network: network
            )
            if news { asked += 1 }
            #expect(result.requests.count == (news ? 1 : 0))
        }
        #expect(network.requests.count == asked + 1)
    }

    /// When the script asks for something else than forecast, it gets what it asked for: the output is the same,
    /// the forecast answer is left unused, and the script is not forecast again until it is consistent again.
    @Test func aWrongForecastCostsOneRequestAndIsForgotten() async throws {
        let runner = runner()
        let network = CountingNetwork()
        let script = try runner.compile(
            """
            function process(url, done) {
              var base = url.indexOf('/v2/') >= 0 ? 'https://api2.example/?u=' : 'https://api.example/?u=';
              done(jsonRequest(base + encodeURIComponent(url)).link);
            }
            """,
            kind: .script2,
            name: "/actions/1/formats/0"
        )
        for index in 0..<4 { _ = await runner.run(script, input: "https://a.example/\(index)", network: network) }
        #expect(network.requests.count == 4)
        let surprise = await runner.run(script, input: "https://a.example/v2/9", network: network)
        let own = "https://api2.example/?u=https%3A%2F%2Fa.example%2Fv2%2F9"
        #expect(surprise.requests == [own])
        #expect(try surprise.output.get() == "app://\(own.count)")
        #expect(surprise.runs == 2)
        #expect(network.requests.suffix(2) == ["https://api.example/?u=https%3A%2F%2Fa.example%2Fv2%2F9", own])
        // Forgotten: the next run finds out what it asks for again.
        #expect(await runner.run(script, input: "https://a.example/10", network: network).runs == 2)
    }

    /// Offline runs fetch nothing, forecast or not.
    @Test func offlineRunsAreNeverForecast() async throws {
        let runner = runner()
        let network = CountingNetwork()
        let script = try runner.compile(Self.api, kind: .script2, name: "/actions/0/formats/0")
        for index in 0..<5 { _ = await runner.run(script, input: "https://m.example/\(index)", network: network) }
        let offline = await runner.run(script, input: "https://m.example/9", network: nil)
        #expect(offline.output.failureCode == .needsNetwork)
        #expect(network.requests.count == 5)
    }
}
