import Foundation
import LinkScripts
import SwitchyardTestSupport
import Testing

/// Scripts that only build their result from their input are evaluated without JavaScriptCore; each such script must
/// give exactly what JavaScriptCore gives, and anything the recogniser is not sure of must run in JavaScriptCore.
@Suite struct ScriptTemplateTests {
    /// Evaluates templates (the default).
    let native: ScriptRunner
    /// Runs every script in JavaScriptCore.
    let javaScriptCore: ScriptRunner

    init() {
        native = ScriptRunner(configuration: Self.configuration(templates: true))
        javaScriptCore = ScriptRunner(configuration: Self.configuration(templates: false))
    }

    /// The configuration of both runners (`ScriptGuardTests` uses it too): a short result limit, `javascript:` refused.
    static func configuration(templates: Bool) -> ScriptConfiguration {
        ScriptConfiguration(timeLimit: .seconds(5), maximumResultLength: 600, evaluatesTemplates: templates) {
            $0.hasPrefix("javascript:") ? "a javascript: URL" : nil
        }
    }

    /// Inputs that exercise every branch of the encoders: each class of ASCII character, multi-byte and astral
    /// characters, a headers input (URL, a line break, JSON), a percent sign, and one long enough to be refused.
    static let inputs: [String] = [
        "https://example.com/42",
        "https://example.com/a b?q=1&r=2#frag",
        "https://user:pw@example.com:8080/p;x=1/%41?a=[1]&b={2}|\\^`\"<>",
        "https://bücher.example/straße?q=日本語&e=🎉",
        "https://example.com/\u{7F}\u{1}\t!~*'()-_.",
        "https://example.com/post/1\n{\"Content-Type\":\"video/mp4\",\"X-Name\":\"a b\"}",
        "javascript:alert(1)",
        "",
        "https://example.com/" + String(repeating: "é", count: 200),
        "https://example.com/" + String(repeating: "a", count: 590),
    ]

    func outputs(
        _ source: String,
        kind: ScriptKind = .script2,
        inputs: [String] = inputs
    ) async throws -> (
        native: [Result<String?, ScriptError>], javaScriptCore: [Result<String?, ScriptError>], isTemplate: Bool
    ) {
        let fast = try native.compile(source, kind: kind, name: "/browsers/0")
        let slow = try javaScriptCore.compile(source, kind: kind, name: "/browsers/0")
        var nativeOutputs: [Result<String?, ScriptError>] = []
        var slowOutputs: [Result<String?, ScriptError>] = []
        for input in inputs {
            nativeOutputs.append(await native.run(fast, input: input, network: nil).output)
            slowOutputs.append(await javaScriptCore.run(slow, input: input, network: nil).output)
        }
        return (nativeOutputs, slowOutputs, fast.isTemplate)
    }

    /// Expects each native output to be JavaScriptCore's, naming the input that differs.
    func expectSame(
        _ outputs: (
            native: [Result<String?, ScriptError>], javaScriptCore: [Result<String?, ScriptError>], isTemplate: Bool
        ),
        on inputs: [String],
        _ what: String
    ) {
        for (index, input) in inputs.enumerated() {
            #expect(outputs.native[index] == outputs.javaScriptCore[index], "\(what.prefix(80)) on \(input.prefix(60))")
        }
    }

    /// Every script of the shared manifests (v5 and v2, `script2` and legacy `script`) that is recognised as a template
    /// gives JavaScriptCore's output, error and message included, on every input, the manifests' test inputs too.
    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func everyRecognisedManifestScriptMatchesJavaScriptCore() async throws {
        var recognised = 0
        var total = 0
        for file in ["openerManifest-v5.json", "openerManifest-v2.json"] {
            let scripts = try ManifestScript.all(in: file)
            // Two test inputs of each action, twenty of them spread over the file for each script.
            let testInputs = Array(Set(scripts.flatMap { $0.testInputs.prefix(2) })).sorted()
            let spread = stride(from: 0, to: testInputs.count, by: max(1, testInputs.count / 20)).map { testInputs[$0] }
            total += scripts.count
            for script in scripts {
                let compiled = try native.compile(script.source, kind: script.kind, name: "/x")
                guard compiled.isTemplate else { continue }
                recognised += 1
                let inputs = Self.inputs + spread.prefix(20)
                let outputs = try await outputs(script.source, kind: script.kind, inputs: inputs)
                expectSame(outputs, on: inputs, "\(file): \(script.source.prefix(80))")
            }
        }
        // The v5 manifest's browsers that take the link as a query parameter are written so, among others.
        #expect(recognised >= 8, "\(recognised) of \(total) scripts recognised as templates")
    }

    /// Templates the manifests do not contain: both quotes, every plain escape, `encodeURI`, the raw input, several
    /// parts, other parameter names, no semicolon, line breaks and JavaScript's other white space between tokens.
    @Test(arguments: [
        #"function process(url, completionHandler) { completionHandler('app://open?u=' + encodeURIComponent(url)); }"#,
        #"function process(u, done) { done("x-app://" + encodeURI(u) + "&from=\"switch\\yard\"") }"#,
        "function process(link,cb){cb('a\\'b\\n\\t\\x41\\u00e9\\u2028\\/'+link+'|'+encodeURIComponent(link));};",
        "\n  function   process ( $u , _d )\n{\n  _d ( 'p:' + $u ) ;\n}\n",
        #"function process(url, done) { done(url); }"#,
        #"function process(url, done) { done('😀 ' + encodeURIComponent(url) + ' ' + encodeURI(url)); }"#,
        #"function process(url, done) { done('javascript:' + url); }"#,
        // JavaScript's white space beyond ASCII, read by the one tokenizer as JavaScriptCore reads it.
        "function process(url, done) {\u{A0}done('a:' + url);\u{FEFF}}",
    ])
    func templatesMatchJavaScriptCore(source: String) async throws {
        let outputs = try await outputs(source)
        #expect(outputs.isTemplate, "not recognised: \(source)")
        expectSame(outputs, on: Self.inputs, source)
    }

    /// Sources the recogniser is not sure of run in JavaScriptCore, to JavaScriptCore's result: a comment, other
    /// statements, a name that shadows an encoder, the input's name as the callee, an escape it does not decode,
    /// a string split over lines, a template literal, a second call, an unknown function, code after the
    /// declaration, a number.
    @Test(arguments: [
        #"function process(url, done) { /* note */ done('a:' + url); }"#,
        #"function process(url, done) { done('a:' + url); } // note"#,
        #"function process(url, done) { var x = 1; done('a:' + url); }"#,
        #"function process(encodeURIComponent, done) { done('a:' + encodeURIComponent(encodeURIComponent)); }"#,
        #"function process(url, done) { url('a:' + done); }"#,
        #"function process(url, done) { done('\0' + url); }"#,
        #"function process(url, done) { done('\u{41}' + url); }"#,
        "function process(url, done) { done('a:\\\nb' + url); }",
        "function process(url, done) { done(`a:${url}`); }",
        #"function process(url, done) { done('a:' + url); done('b:'); }"#,
        #"function process(url, done) { done('a:' + escape(url)); }"#,
        #"function process(url, done) { done('a:' + url); } encodeURIComponent = function () { return 'x'; };"#,
        #"function process(url, done) { done(1 + url); }"#,
        #"function process(url, url) { url('a:' + url); }"#,
        #"function process(url, done) { done('\ud83d' + url); }"#,
    ])
    func otherSourcesRunInJavaScriptCore(source: String) async throws {
        let outputs = try await outputs(source)
        #expect(!outputs.isTemplate, "recognised: \(source)")
        expectSame(outputs, on: Self.inputs, source)
    }

    /// A template's result is refused by the same checks, with the same messages, as a run's: the result check and
    /// the length limit (in UTF-16 code units, as JavaScriptCore measures it).
    @Test func refusalsAreJavaScriptCoresOwn() async throws {
        let source = #"function process(url, done) { done('javascript:' + encodeURIComponent(url)); }"#
        let outputs = try await outputs(source, inputs: ["a", String(repeating: "😀", count: 200)])
        #expect(outputs.isTemplate)
        #expect(throws: ScriptError.self) { try outputs.native[0].get() }
        #expect(outputs.native == outputs.javaScriptCore)
        let codes = outputs.native.map { result -> ScriptError.Code? in
            if case .failure(let error) = result { error.code } else { nil }
        }
        #expect(codes == [.badResultURL, .resultTooLarge])
    }

    /// A template needs no worker: evaluating one starts no JavaScriptCore thread.
    @Test func aTemplateStartsNoWorker() async throws {
        let runner = ScriptRunner()
        let script = try runner.compile(
            "function process(url, done) { done('app://' + encodeURIComponent(url)); }",
            kind: .script2,
            name: "/browsers/1"
        )
        let result = await runner.run(script, input: "https://example.com/a b", network: nil)
        #expect(try result.output.get() == "app://https%3A%2F%2Fexample.com%2Fa%20b")
        #expect(runner.workerCount == 0)
    }
}
