import Foundation
import LinkScripts
import SwitchyardTestSupport
import Synchronization
import Testing

/// A network answering from a table, counting requests; unknown URLs fail like a 404.
struct TableNetwork: ScriptNetwork {
    var pages: [String: String]
    var delay: Duration = .zero
    var error: ScriptNetworkError?
    let record = ScriptAnswers()

    func get(_ url: String, deadline: ContinuousClock.Instant) async throws(ScriptNetworkError) -> String {
        try await record.keep(url) { () throws(ScriptNetworkError) -> String in
            if delay > .zero { try? await Task.sleep(until: min(ContinuousClock.now + delay, deadline)) }
            if let error { throw error }
            guard let page = pages[url] else { throw ScriptNetworkError(kind: .failed, message: "404 for \(url)") }
            return page
        }
    }

    func answer(to url: String) -> Result<String, ScriptNetworkError>? {
        record.answer(to: url)
    }

    static func seconds(_ duration: Duration) -> Double {
        duration / .seconds(1)
    }
}

@Suite struct ScriptRunnerTests {
    let runner = ScriptRunner(configuration: ScriptConfiguration(timeLimit: .seconds(2)))

    func run(
        _ source: String,
        input: String = "https://example.com/42",
        kind: ScriptKind = .script2,
        network: (any ScriptNetwork)? = nil,
        timeLimit: Duration? = nil
    ) async throws -> ScriptResult {
        let script = try runner.compile(source, kind: kind, name: "/actions/0/formats/0")
        return await runner.run(script, input: input, network: network, timeLimit: timeLimit)
    }

    @Test func completesWithAString() async throws {
        let result = try await run("function process(url, done) { done('app://' + encodeURIComponent(url)); }")
        #expect(try result.output.get() == "app://https%3A%2F%2Fexample.com%2F42")
    }

    @Test func nullMeansNoResult() async throws {
        #expect(try await run("function process(u, c) { c(null); }").output.get() == nil)
    }

    @Test(arguments: [
        ("zAoa96gwQg", "918912099030336544"), ("D", "3"), ("J_NvB", "167566273"),
        ("BcETi8Fh-iI", "1658536526642407560"),
    ])
    func base64DigitsToBase10(text: String, expected: String) async throws {
        let source = """
            function process(url, done) {
                var alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
                var digits = url.split('').map(function (c) { return alphabet.indexOf(c); });
                done(base64DigitsToBase10String(digits));
            }
            """
        #expect(try await run(source, input: text).output.get() == expected)
    }

    @Test func btoaEncodesLatin1() async throws {
        #expect(try await run("function process(u, c) { c(btoa('hello, wörld')); }").output.get() == "aGVsbG8sIHf2cmxk")
    }

    @Test func httpAndJSONRequestsGoThroughTheNetwork() async throws {
        let network = TableNetwork(pages: [
            "https://api.example/42": #"{"id": "abc"}"#, "https://page.example/": "<meta content=\"app://x\">",
        ])
        let source =
            "function process(u, c) { var j = jsonRequest('https://api.example/42'); var p = httpRequest('https://page.example/'); c('app://' + j.id + '/' + /content=\"(.*?)\"/.exec(p)[1]); }"
        let result = try await run(source, network: network)
        #expect(try result.output.get() == "app://abc/app://x")
        #expect(result.usedNetwork)
    }

    @Test(arguments: [("httpRequest", 50), ("jsonRequest", 50), ("httpRequest", 3)])
    func oneRunMakesABoundedNumberOfSubrequests(helper: String, limit: Int) async throws {
        let runner = ScriptRunner(configuration: ScriptConfiguration(timeLimit: .seconds(2), maximumSubrequests: limit))
        let network = TableNetwork(pages: ["https://api.example/": "{}"])
        // The script catches the exception the request past the limit throws and reports its code and count.
        let source = """
            function process(u, c) {
                var made = 0;
                try { for (;;) { \(helper)('https://api.example/'); made++; } }
                catch (e) { c('app://' + made + '/' + e.code); }
            }
            """
        let script = try runner.compile(source, kind: .script2, name: "/actions/0/formats/0")
        let result = await runner.run(script, input: "https://example.com/", network: network)
        #expect(try result.output.get() == "app://\(limit)/E_TOO_MANY_SUBREQUESTS")

        // A script that lets the exception escape fails with the same code.
        let escaping = try runner.compile(
            "function process(u, c) { for (;;) { \(helper)('https://api.example/'); } }",
            kind: .script2,
            name: "/actions/0/formats/1"
        )
        let failed = await runner.run(escaping, input: "https://example.com/", network: network)
        #expect(throws: ScriptError.self) { try failed.output.get() }
        if case .failure(let error) = failed.output { #expect(error.code == .tooManySubrequests) }
    }

    @Test func theSubrequestBoundIsPerRun() async throws {
        let runner = ScriptRunner(configuration: ScriptConfiguration(timeLimit: .seconds(2), maximumSubrequests: 2))
        let network = TableNetwork(pages: ["https://api.example/": "{}"])
        let script = try runner.compile(
            "function process(u, c) { httpRequest('https://api.example/'); httpRequest('https://api.example/'); c('app://ok'); }",
            kind: .script2,
            name: "/actions/0/formats/0"
        )
        // The warm context is reused: a count that leaked into the next run would fail it.
        for _ in 0..<3 {
            let result = await runner.run(script, input: "https://example.com/", network: network)
            #expect(try result.output.get() == "app://ok")
        }
    }

    @Test func offlineRunsReportThatTheScriptNeedsTheNetwork() async throws {
        let source = "function process(u, c) { try { c(httpRequest(u)); } catch (e) { c(null); } }"
        let result = try await run(source)
        #expect(result.output.failureCode == .needsNetwork)
    }

    @Test func legacyScriptsGetXMLHttpRequest() async throws {
        let network = TableNetwork(pages: ["https://example.com/42": "<a href=\"swarm://checkins/1\">"])
        let source = """
            function process(url, completionHandler) { var xmlhttp = new XMLHttpRequest(); xmlhttp.onreadystatechange = function() { if (xmlhttp.readyState == 4 && xmlhttp.status == 200) { var res = xmlhttp.responseText; var regex = RegExp('.*(swarm:\\/\\/.*?)\\".*'); var match = regex.exec(res)[1]; completionHandler(match); } }; xmlhttp.open('GET', url, true); xmlhttp.send(); }
            """
        #expect(try await run(source, kind: .legacyScript, network: network).output.get() == "swarm://checkins/1")
    }

    @Test func compileRejectsSyntaxErrorsAndMissingProcess() {
        #expect(throws: ScriptError.self) {
            try runner.compile("function process(url, cb) {", kind: .script2, name: "r")
        }
        do {
            _ = try runner.compile("var x = 1;", kind: .script2, name: "r")
            Issue.record("compiled a script without process")
        } catch {
            #expect(error.code == .noProcess)
        }
    }

    @Test func infiniteLoopIsStoppedNearItsLimitAndTheNextRunWorks() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await run("function process(u, c) { while (true) {} }", timeLimit: .milliseconds(300))
        let elapsed = clock.now - start
        #expect(result.output.failureCode == .timeout)
        #expect(elapsed < .milliseconds(300) + .milliseconds(200), "stopped after \(elapsed)")
        #expect(try await run("function process(u, c) { c('app://ok'); }").output.get() == "app://ok")
    }

    @Test func blockedNetworkCallIsBoundedByTheDeadline() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await run(
            "function process(u, c) { c(httpRequest(u)); }",
            network: TableNetwork(pages: [:], delay: .seconds(10)),
            timeLimit: .milliseconds(300)
        )
        #expect(clock.now - start < .milliseconds(800))
        #expect(result.output.failureCode != nil)
    }

    @Test func aRunawayScriptDoesNotHoldUpOtherRuns() async throws {
        let clock = ContinuousClock()
        async let runaway = run("function process(u, c) { for (;;) {} }", timeLimit: .seconds(2))
        try await Task.sleep(for: .milliseconds(50))
        let start = clock.now
        let quick = try await run("function process(u, c) { c('app://quick'); }")
        #expect(try quick.output.get() == "app://quick")
        #expect(clock.now - start < .milliseconds(500))
        _ = try await runaway
    }

    @Test func manyConcurrentRunsAreSafe() async throws {
        let script = try runner.compile("function process(u, c) { c('app://' + u.length); }", kind: .script2, name: "r")
        let results = await withTaskGroup(of: String?.self) { group in
            for index in 0..<200 {
                group.addTask {
                    try? await self.runner.run(script, input: String(repeating: "a", count: index), network: nil).output
                        .get()
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(Set(results.compactMap { $0 }) == Set((0..<200).map { "app://\($0)" }))
    }
}

extension Result where Failure == ScriptError {
    var failureCode: ScriptError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}

/// A network whose answers wait for a gate, and which says when it is asked.
final class GateNetwork: ScriptNetwork {
    let asked: AsyncStream<String>
    private let askedContinuation: AsyncStream<String>.Continuation
    private let gate = Mutex<[CheckedContinuation<Void, Never>]>([])
    private let open = Mutex(false)

    init() {
        (asked, askedContinuation) = AsyncStream.makeStream(of: String.self)
    }

    private let record = ScriptAnswers()

    func get(_ url: String, deadline: ContinuousClock.Instant) async throws(ScriptNetworkError) -> String {
        askedContinuation.yield(url)
        await withCheckedContinuation { continuation in
            let waits = open.withLock { !$0 }
            if waits { gate.withLock { $0.append(continuation) } } else { continuation.resume() }
        }
        return try await record.keep(url) { #"{"id": "7"}"# }
    }

    func answer(to url: String) -> Result<String, ScriptNetworkError>? {
        record.answer(to: url)
    }

    func release() {
        open.withLock { $0 = true }
        for continuation in gate.withLock({ list in
            defer { list = [] }
            return list
        }) { continuation.resume() }
    }
}

/// No worker waits on the network: a script stops at the request it lacks, the answer is awaited off the workers, and
/// the script runs again with it.
@Suite struct ScriptNetworkWaitTests {
    @Test func aWorkerIsFreeWhileAScriptsRequestIsInFlight() async throws {
        // One worker in all: if a run held it while its request is in flight, the second script could not run.
        let runner = ScriptRunner(
            configuration: ScriptConfiguration(timeLimit: .seconds(30), workerCount: 1, maximumWorkers: 1)
        )
        let fetching = try runner.compile(
            "function process(url, done) { done('app://' + jsonRequest('https://api.example/' + url).id); }",
            kind: .script2,
            name: "/fetching"
        )
        let local = try runner.compile(
            "function process(url, done) { done('app://local'); }",
            kind: .script2,
            name: "/l"
        )
        let network = GateNetwork()
        let first = Task { await runner.run(fetching, input: "x", network: network) }
        var asked = network.asked.makeAsyncIterator()
        #expect(await asked.next() == "https://api.example/x")
        let second = await runner.run(local, input: "y", network: nil, timeLimit: .seconds(10))
        #expect(try second.output.get() == "app://local")
        network.release()
        let result = await first.value
        #expect(try result.output.get() == "app://7")
        #expect(result.runs == 2)
        #expect(result.requests == ["https://api.example/x"])
        #expect(result.usedNetwork)
    }

    /// Each answer not at hand costs one more run; the first request, certain from this source, is fetched before the
    /// first run unless the runner leaves every script to JavaScriptCore.
    @Test(arguments: [(true, 2), (false, 3)])
    func eachAnswerAScriptLacksCostsOneMoreRun(readsSources: Bool, runs: Int) async throws {
        let runner = ScriptRunner(
            configuration: ScriptConfiguration(timeLimit: .seconds(10), evaluatesTemplates: readsSources)
        )
        let script = try runner.compile(
            """
            function process(url, done) {
                var a = httpRequest('https://a.example/1');
                var b = httpRequest('https://b.example/' + a);
                done('app://' + b);
            }
            """,
            kind: .script2,
            name: "/two"
        )
        let network = TableNetwork(pages: ["https://a.example/1": "2", "https://b.example/2": "done"])
        let result = await runner.run(script, input: "x", network: network)
        #expect(try result.output.get() == "app://done")
        #expect(result.runs == runs)
        #expect(result.requests == ["https://a.example/1", "https://b.example/2"])
    }

    @Test func aScriptThatCatchesTheStopIsStillRunAgain() async throws {
        let runner = ScriptRunner(configuration: ScriptConfiguration(timeLimit: .seconds(10)))
        let script = try runner.compile(
            """
            function process(url, done) {
                var answer = 'none';
                try { answer = httpRequest('https://a.example/1'); } catch (error) { answer = 'caught'; }
                done('app://' + answer);
            }
            """,
            kind: .script2,
            name: "/catching"
        )
        let result = await runner.run(script, input: "x", network: TableNetwork(pages: ["https://a.example/1": "ok"]))
        #expect(try result.output.get() == "app://ok")
    }

    /// The network is the one record of its answers: a script run again reads them there, and a run that stops again
    /// at an answer the network was asked for and did not keep ends, instead of asking for it again and again.
    @Test func theAnswersAtHandAreTheNetworksAndOneItDidNotKeepEndsTheRun() async throws {
        let runner = ScriptRunner(configuration: ScriptConfiguration(timeLimit: .seconds(10)))
        let script = try runner.compile(
            "function process(u, done) { done('app://' + httpRequest('https://a.example/' + u.length)); }",
            kind: .script2,
            name: "/forgetful"
        )
        let keeping = TableNetwork(pages: ["https://a.example/1": "ok"])
        let kept = await runner.run(script, input: "x", network: keeping)
        #expect(try kept.output.get() == "app://ok")
        #expect(kept.runs == 2)
        #expect(keeping.answer(to: "https://a.example/1") == .success("ok"))
        let forgetful = ForgetfulNetwork()
        let start = ContinuousClock.now
        let ended = await runner.run(script, input: "x", network: forgetful)
        #expect(ContinuousClock.now - start < .seconds(5), "it ran until its deadline")
        #expect(forgetful.asked.withLock { $0 } == 1)
        #expect(ended.runs == 2)
        #expect(ended.output.failureCode == .exception)
        if case .failure(let error) = ended.output { #expect(error.description.contains("keeps no answer")) }
    }
}

/// A network that answers but keeps no record of it (a broken conformer).
final class ForgetfulNetwork: ScriptNetwork {
    let asked = Mutex(0)

    func get(_ url: String, deadline: ContinuousClock.Instant) async throws(ScriptNetworkError) -> String {
        asked.withLock { $0 += 1 }
        return "ok"
    }

    func answer(to url: String) -> Result<String, ScriptNetworkError>? { nil }
}

/// One resolution's scripts go to a worker together; one that runs long leaves the others to another worker.
@Suite struct ScriptBatchTests {
    @Test func aLongRunLeavesTheRestOfItsBatchToAnotherWorker() async throws {
        let runner = ScriptRunner(
            configuration: ScriptConfiguration(timeLimit: .seconds(10), workerCount: 1, maximumWorkers: 2)
        )
        let spin = try runner.compile("function process(u, done) { for (;;) {} }", kind: .script2, name: "/spin")
        let quick = try runner.compile("function process(u, done) { done('app://' + u); }", kind: .script2, name: "/q")
        let results = await runner.run(
            [ScriptRun(script: spin, input: "a"), ScriptRun(script: quick, input: "b")],
            network: nil,
            deadline: .now + .seconds(1)
        )
        #expect(results[0].output.failureCode == .timeout)
        // Left in the batch behind the spinning script, it would have started only after the deadline.
        #expect(try results[1].output.get() == "app://b")
    }

    @Test func resultsComeInTheOrderOfTheRuns() async throws {
        let runner = ScriptRunner(configuration: ScriptConfiguration(timeLimit: .seconds(10)))
        let echo = try runner.compile("function process(u, done) { done('app://' + u); }", kind: .script2, name: "/e")
        let inputs = (0..<12).map { "x\($0)" }
        let results = await runner.run(
            inputs.map { ScriptRun(script: echo, input: $0) },
            network: nil,
            deadline: .now + .seconds(10)
        )
        #expect(results.map { try? $0.output.get() } == inputs.map { "app://\($0)" })
    }
}
