import Foundation
import LinkScripts
import SwitchyardTestSupport
import Testing

/// Scripts that test their input with a regular expression first and otherwise only build their result from it (the
/// v5 Safari browser's) are decided without JavaScriptCore when the expression does not match; each such decision
/// must be JavaScriptCore's own, and anything the reading is not sure of must run in JavaScriptCore.
@Suite struct ScriptGuardTests {
    let native = ScriptRunner(configuration: ScriptTemplateTests.configuration(templates: true))
    let javaScriptCore = ScriptRunner(configuration: ScriptTemplateTests.configuration(templates: false))

    /// The template tests' inputs, and links an Apple News guard matches, misses by a character, or matches only
    /// through `.` (the manifest's `\.` in a JavaScript string is a `.`).
    static let inputs: [String] =
        ScriptTemplateTests.inputs + [
            "https://apple.news/AbC", "http://www.apple.news/x", "https://news.apple.com/a", "https://newsXappleYcom/",
            "https://apple-news.example/", "https://example.com/?u=https://apple.news/x", "HTTPS://APPLE.NEWS/",
            "https://news.apple.co/", "https://example.com/a\u{0B}b", "https://example.com/a\u{85}b",
        ]

    /// Runs `source` on `inputs` natively and in JavaScriptCore: each output, and how many were decided natively.
    func compare(
        _ source: String,
        kind: ScriptKind = .script2,
        inputs: [String] = inputs,
        _ what: String
    ) async throws
        -> Int
    {
        let fast = try native.compile(source, kind: kind, name: "/browsers/0")
        let slow = try javaScriptCore.compile(source, kind: kind, name: "/browsers/0")
        var decided = 0
        for input in inputs {
            let nativeResult = await native.run(fast, input: input, network: nil)
            let slowResult = await javaScriptCore.run(slow, input: input, network: nil)
            #expect(nativeResult.output == slowResult.output, "\(what.prefix(80)) on \(input.prefix(60))")
            if nativeResult.evaluatedNatively, !fast.isTemplate { decided += 1 }
        }
        return decided
    }

    /// Every script of the shared manifests gives JavaScriptCore's output on every input, the manifests' test inputs
    /// too; the v5 Safari browser's is decided natively on the links it does not rewrite.
    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func everyManifestScriptMatchesJavaScriptCore() async throws {
        var guarded = 0
        for file in ["openerManifest-v5.json", "openerManifest-v2.json"] {
            let scripts = try ManifestScript.all(in: file)
            let testInputs = Array(Set(scripts.flatMap { $0.testInputs.prefix(2) })).sorted()
            let spread = stride(from: 0, to: testInputs.count, by: max(1, testInputs.count / 10)).map { testInputs[$0] }
            for script in scripts where script.source.contains("RegExp") {
                let decided = try await compare(
                    script.source,
                    kind: script.kind,
                    inputs: Self.inputs + spread,
                    "\(file): \(script.source)"
                )
                if decided > 0 { guarded += 1 }
            }
        }
        #expect(guarded >= 1, "no manifest script was decided by its guard")
    }

    /// Guards the manifests do not contain, each recognised (some input decided natively) and JavaScriptCore's: the
    /// expression read by the one JavaScript-to-ICU translator, classes, anchors, class escapes and lookaheads too.
    @Test(arguments: [
        #"function process(url, done) { var m = RegExp('apple[.]news').exec(url); if (m) { done('a'); } else { done(url); } }"#,
        #"function process(url, done) { var m = RegExp('news$').exec(url); if (m) { done('a'); } else { done(url); } }"#,
        #"function process(url, done) { var m = RegExp('\\d').exec(url); if (m) { done('a'); } else { done(url); } }"#,
        #"function process(url, done) { var m = RegExp('a(?=b)').exec(url); if (m) { done('a'); } else { done(url); } }"#,
        #"function process(url, done) { var m = new RegExp('^https?://apple\\.news/').exec(url); if (m !== null) { done('news:' + url); } else { done(url); } }"#,
        #"function process(u, cb) { var found = RegExp('(?:www.)?apple.news|x+?y*?z??').exec(u); if (found) { cb('a'); } else { cb('b://' + encodeURIComponent(u)) } };"#,
        #"function process(url, done) { var r = RegExp("news\\.apple\\.com\\/(a|b)+").exec(url); if (r != null && r.length >= 2) { var x = httpRequest(url); done(x); } else { done('safari://' + url); } }"#,
        "function process(url, done) {\n  // a comment\n  var m = RegExp('apple.news').exec(url);\n  if (m != null && m.length > 1) {\n    done(m[1]);\n  } else {\n    done(url);\n  }\n}",
    ])
    func guardsMatchJavaScriptCore(source: String) async throws {
        let decided = try await compare(source, source)
        #expect(decided > 0, "never decided natively: \(source)")
    }

    /// Sources the reading is not sure of always run in JavaScriptCore: flags, a condition without the null test or
    /// with `||`, `RegExp` or an encoder declared or named as a string in the body, more than one call in the `else`
    /// branch, an expression the translator refuses (`\u{…}` without the `u` flag, an octal escape).
    @Test(arguments: [
        #"function process(url, done) { var m = RegExp('apple.news', 'i').exec(url); if (m) { done('a'); } else { done(url); } }"#,
        #"function process(url, done) { var m = RegExp('apple').exec(url); if (m.length > 1) { done('a'); } else { done(url); } }"#,
        #"function process(url, done) { var m = RegExp('apple').exec(url); if (m != null || url) { done('a'); } else { done(url); } }"#,
        #"function process(url, done) { var m = RegExp('apple').exec(url); if (m) { var RegExp = 1; done('a'); } else { done(url); } }"#,
        #"function process(url, done) { var m = RegExp('apple').exec(url); if (m) { function encodeURIComponent() { return 'x'; } } else { done(encodeURIComponent(url)); } }"#,
        #"function process(url, done) { var m = RegExp('apple').exec(url); if (m) { done(this['RegExp'].name); } else { done(url); } }"#,
        #"function process(url, done) { var m = RegExp('apple').exec(url); if (m) { done('a'); } else { done(url); done('b'); } }"#,
        #"function process(url, done) { var m = RegExp('a\\u{61}').exec(url); if (m) { done('a'); } else { done(url); } }"#,
        #"function process(url, done) { var m = RegExp('a\\12').exec(url); if (m) { done('a'); } else { done(url); } }"#,
    ])
    func otherSourcesRunInJavaScriptCore(source: String) async throws {
        let decided = try await compare(source, source)
        #expect(decided == 0, "decided natively: \(source)")
    }

    /// A guard that fails needs no worker.
    @Test func aFailedGuardStartsNoWorker() async throws {
        let runner = ScriptRunner()
        let script = try runner.compile(
            #"function process(url, done) { var m = RegExp('apple\\.news').exec(url); if (m != null && m.length > 1) { done(m[1]); } else { done(url); } }"#,
            kind: .script2,
            name: "/browsers/0"
        )
        let result = await runner.run(script, input: "https://example.com/a", network: nil)
        #expect(try result.output.get() == "https://example.com/a")
        #expect(runner.workerCount == 0)
    }

    /// A guard whose expression nests repetition (`(a+)+b`) is no guard: on a hostile link, where ICU and
    /// JavaScriptCore both backtrack exponentially, the script runs in JavaScriptCore and gives its answer (no ICU
    /// run on the caller's task at all), and on other links too.
    @Test func aGuardThatNestsRepetitionRunsInJavaScriptCore() async throws {
        let source =
            #"function process(url, done) { var m = RegExp('x/(a+)+b').exec(url); if (m != null) { done('app://' + m[0]); } else { done(url); } }"#
        let hostile = "https://example.com/x/" + String(repeating: "a", count: 20) + "c"
        let decided = try await compare(
            source,
            inputs: [hostile, "https://example.com/x/aab", "https://example.com/"],
            "nested repetition"
        )
        #expect(decided == 0, "a nested-repetition guard decided natively")
    }

    /// A guard's expression runs under the matcher's per-regex budget (``ScriptConfiguration/guardTimeLimit``): one
    /// that cannot decide in time decides nothing, and the answer is JavaScriptCore's own. With no time at all, a
    /// quadratic expression on a long link cannot decide, so the script runs in JavaScriptCore (which finishes it).
    @Test func aGuardThatRunsOutOfTimeLeavesTheAnswerToJavaScriptCore() async throws {
        let source =
            #"function process(url, done) { var m = RegExp('.*.*z').exec(url); if (m != null) { done('app://z'); } else { done(url); } }"#
        let input = "https://example.com/" + String(repeating: "a", count: 300)
        func runner(templates: Bool, budget: Duration) -> ScriptRunner {
            var configuration = ScriptTemplateTests.configuration(templates: templates)
            configuration.maximumResultLength = 8192
            configuration.guardTimeLimit = budget
            return ScriptRunner(configuration: configuration)
        }
        let unhurried = runner(templates: true, budget: .seconds(5))
        let hurried = runner(templates: true, budget: .zero)
        let javaScriptCore = runner(templates: false, budget: .zero)
        func run(_ runner: ScriptRunner) async throws -> ScriptResult {
            await runner.run(try runner.compile(source, kind: .script2, name: "/a"), input: input, network: nil)
        }
        let decided = try await run(unhurried)
        let undecided = try await run(hurried)
        let reference = try await run(javaScriptCore)
        #expect(decided.evaluatedNatively, "with time enough, the guard decides")
        #expect(!undecided.evaluatedNatively, "the guard decided although its expression ran out of time")
        #expect(decided.output == reference.output)
        #expect(undecided.output == reference.output, "the answer is not JavaScriptCore's")
    }
}
