import Foundation
import LinkScripts
import SwitchyardTestSupport
import Testing

/// A script whose first request is certain from its source (`var u = 'https://api…' + encodeURIComponent(url);
/// var r = jsonRequest(u); …`) has that answer fetched before its first run online, and its offline result known
/// without running it; both must be exactly what JavaScriptCore gives, and anything the reader is not sure of must run.
@Suite struct RequestPrologueTests {
    /// Works out what sources make certain (templates and first requests); no forecasts, so that a first run that
    /// had its answer at hand owes it to the source alone.
    let native = ScriptRunner(configuration: ScriptConfiguration(timeLimit: .seconds(5), predictsRequests: false))
    /// Runs every script in JavaScriptCore.
    let javaScriptCore = ScriptRunner(
        configuration: ScriptConfiguration(timeLimit: .seconds(5), evaluatesTemplates: false, predictsRequests: false)
    )

    static let inputs = ScriptTemplateTests.inputs.filter { !$0.isEmpty }

    /// What each runner gives for `source` on `input`, online (a network that answers every URL) and offline.
    func compare(
        _ source: String,
        kind: ScriptKind = .script2,
        input: String
    ) async throws -> (
        certain: Bool, sameOnline: Bool, sameOffline: Bool, sameRequests: Bool
    ) {
        let fast = try native.compile(source, kind: kind, name: "/actions/0/formats/0")
        let slow = try javaScriptCore.compile(source, kind: kind, name: "/actions/0/formats/0")
        let fastNetwork = CountingNetwork()
        let slowNetwork = CountingNetwork()
        let online = await native.run(fast, input: input, network: fastNetwork)
        let reference = await javaScriptCore.run(slow, input: input, network: slowNetwork)
        let offline = await native.run(fast, input: input, network: nil)
        let offlineReference = await javaScriptCore.run(slow, input: input, network: nil)
        // A first run with its first answer at hand, on a runner that never forecasts: the source made it certain
        // (offline, decided without running to need the network; a guard that fails is decided natively too).
        var certain = false
        if offline.evaluatedNatively, case .failure(let error) = offline.output {
            certain = error.code == .needsNetwork
        }
        if certain { #expect(online.runs == reference.runs - 1, "\(source.prefix(80))") }
        return (
            certain,
            online.output == reference.output && online.requests == reference.requests,
            offline.output == offlineReference.output,
            fastNetwork.requests == slowNetwork.requests
        )
    }

    /// Every script of the shared manifests whose first request is certain gives JavaScriptCore's output, asks for
    /// the same URLs (none more), and is known offline to need the network, on hostile and test inputs.
    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func everyCertainManifestScriptMatchesJavaScriptCore() async throws {
        var certain = 0
        var requesting = 0
        for file in ["openerManifest-v5.json", "openerManifest-v2.json"] {
            for script in try ManifestScript.all(in: file) where script.source.contains("Request(") {
                requesting += 1
                var wasCertain = false
                for input in Array(script.testInputs.prefix(3)) + Self.inputs.prefix(4) {
                    let outcome = try await compare(script.source, kind: script.kind, input: input)
                    wasCertain = outcome.certain
                    let what = "\(file): \(script.source.prefix(90)) on \(input.prefix(60))"
                    #expect(outcome.sameOnline, "\(what)")
                    #expect(outcome.sameOffline, "\(what)")
                    #expect(outcome.sameRequests, "\(what)")
                }
                if wasCertain { certain += 1 }
            }
        }
        // song.link's scripts (seven to nine per music link) are written so, among others.
        #expect(certain >= 20, "\(certain) of \(requesting) scripts that request have a certain first request")
    }

    @Test(arguments: [
        """
        function process(url, done) {
          var requestURL = 'https://api.example/links?url=' + encodeURIComponent(url) + "&v=\\u0031";
          var res = jsonRequest(requestURL);
          done(res == null ? null : res.link);
        }
        """,
        "function process(url, done) { var res = httpRequest(url); done(JSON.parse(res).link); }",
        """
        function process(u, cb) { /* the API */ var base = 'https://a.example/?'; // then the link
          var full = base + 'u=' + encodeURI(u) + '&c=' + encodeURIComponent(u);
          jsonRequest(full); cb(String('app://' + 1)); };
        """,
        """
        function process(url, done) {
          var res = jsonRequest('https://api.example/' + encodeURIComponent(url));
          var url2 = url.replace('a', 'b'); var parts = url2.split('/');
          function helper(x) { return x * 2; }
          done(res.link + helper(parts.length));
        }
        """,
    ])
    func certainFirstRequestsMatchJavaScriptCore(source: String) async throws {
        for input in Self.inputs {
            let outcome = try await compare(source, input: input)
            #expect(outcome.certain, "not recognised: \(source)")
            #expect(outcome.sameOnline && outcome.sameOffline && outcome.sameRequests, "on \(input.prefix(60))")
        }
    }

    /// Sources whose first request is not certain, or whose names the rest of the body could change before the first
    /// statement, run in JavaScriptCore, to its result.
    @Test(arguments: [
        // A hoisted declaration replaces the request function, the encoder, or the input itself.
        "function process(url, done) { var r = jsonRequest('https://a.example/' + url); done(r.link); function jsonRequest(u) { return { link: 'app://fake' }; } }",
        "function process(url, done) { var r = jsonRequest('https://a.example/' + url); done(r.link); var jsonRequest; }",
        "function process(url, done) { var r = jsonRequest('https://a.example/' + encodeURIComponent(url)); done(r.link); function encodeURIComponent(x) { return 'x'; } }",
        "function process(url, done) { var r = jsonRequest('https://a.example/' + url); done(r.link); function url() {} }",
        // Built-ins the request goes through, assigned or named (in branches never taken: a script that does rewrite
        // them changes its own later runs, in JavaScriptCore too, on whichever worker ran it).
        "function process(url, done) { var r = jsonRequest('https://a.example/' + url); if (!r) { String = null; } done(r.link); }",
        "function process(url, done) { var r = jsonRequest('https://a.example/' + url); var name = 'String'; done(typeof this[name]); }",
        // Something else first, or a request the reader cannot evaluate.
        "function process(url, done) { 'use strict'; var r = jsonRequest(url); done(r.link); }",
        "function process(url, done) { if (url.length > 30) { done(null); return; } var r = jsonRequest(url); done(r.link); }",
        "function process(url, done) { var r = jsonRequest(url.replace('http:', 'https:')); done(r.link); }",
        "function process(url, done) { var u = url; u = 'x'; var r = jsonRequest(u); done(r.link); }",
        // What the scan does not read: a regular expression literal, a template literal.
        "function process(url, done) { var r = jsonRequest(url); done(/link/.test(r.link) ? r.link : null); }",
        "function process(url, done) { var r = jsonRequest(url); done(`${r.link}`); }",
    ])
    func uncertainSourcesRunInJavaScriptCore(source: String) async throws {
        for input in Self.inputs.prefix(4) {
            let outcome = try await compare(source, input: input)
            #expect(!outcome.certain, "recognised: \(source)")
            #expect(outcome.sameOnline && outcome.sameOffline && outcome.sameRequests, "on \(input.prefix(60))")
        }
    }

    /// With no request allowed at all, the first one is refused for that reason, not for being offline: the run is not
    /// decided without running.
    @Test func aRunnerThatAllowsNoRequestsStillRunsTheScript() async throws {
        let runner = ScriptRunner(configuration: ScriptConfiguration(maximumSubrequests: 0))
        let script = try runner.compile(
            "function process(url, done) { var r = jsonRequest(url); done(r.link); }",
            kind: .script2,
            name: "/actions/0/formats/0"
        )
        let result = await runner.run(script, input: "https://a.example/", network: nil)
        #expect(!result.evaluatedNatively)
        #expect(result.output.failureCode == .tooManySubrequests)
    }
}
