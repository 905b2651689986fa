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
    ]

    @Test(arguments: samples)
    func scanAnswersAsTheRegex(_ source: String) throws {
        let regex = try NSRegularExpression(pattern: #"(function\s+process\s*\(|\bprocess\s*=)"#)
        let expected = regex.firstMatch(in: source, range: NSRange(source.startIndex..., in: source)) != nil
        #expect(ScriptSyntaxChecker.mentionsProcess(source) == expected)
    }
}
