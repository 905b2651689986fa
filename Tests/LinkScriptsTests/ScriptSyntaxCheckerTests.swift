import Foundation
import LinkScripts
import Testing

/// `mentionsProcess` is a hand-written scan standing in for the regex `(function\s+process\s*\(|\bprocess\s*=)`;
/// it must answer as the regex does.
struct ScriptSyntaxCheckerTests {
    static let samples = [
        "function process(url, done) { done(url) }",
        "function  process  (url) {}",
        "function\n\tprocess\n(url) {}",
        "functionprocess(url) {}",
        "xfunction process(u) {}",
        "function process",
        "function processor(url) {}",
        "var process = function (url, done) {}",
        "process=(u,d)=>d(u)",
        "let process\n = 1",
        "subprocess = 1",
        "_process = 1",
        "$process = 1",
        "a.process = 1",
        "process == other",
        "const f = process;",
        "process(url)",
        "",
        "process",
        "function process(",
        "function process ",
        "// no function here\nvar x = 1",
        "function é process(u) {}",
        "function\u{A0}process(u) {}",
        "function\u{2028}process\u{3000}(u) {}",
        "\u{A0}process = 1",
        "éprocess = 1",
        "×process = 1",
        "\u{301}process = 1",
        "e\u{301}process = 1",
        "+\u{301}process = 1",
        "٣process = 1",
        "‿process = 1",
    ]

    @Test(arguments: samples)
    func scanAnswersAsTheRegex(_ source: String) throws {
        let regex = try NSRegularExpression(pattern: #"(function\s+process\s*\(|\bprocess\s*=)"#)
        let expected = regex.firstMatch(in: source, range: NSRange(source.startIndex..., in: source)) != nil
        #expect(ScriptSyntaxChecker.mentionsProcess(source) == expected)
    }
}
