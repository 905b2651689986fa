import LinkScripts

/// Removes comments and insignificant whitespace from JavaScript, never renaming anything.
///
/// The source is split into tokens (strings, template literals with nested `${ }` expressions, regular expression
/// literals, numbers, words and punctuators); the tokens are then written back with nothing, one space or one
/// newline between them:
/// - a space only where the two tokens would otherwise run together (`return x`, `a + +b`, `1 .toString()`);
/// - a newline only where the source had one (a line break or a comment spanning lines) and dropping it could change
///   how automatic semicolon insertion reads the code (`return` and the other restricted productions, `++`/`--` on
///   a new line, or a line ending an expression followed by one starting a statement).
///
/// Template literals, strings and regular expressions are copied byte for byte. As a last check the result is
/// tokenized again and must give the same tokens as the source; otherwise the minifier gives up.
public enum JavaScriptMinifier {
    /// The minified source, or nil when the source cannot be tokenized safely (unterminated string,
    /// comment, template or regex literal) — callers then keep the original.
    public static func minify(_ source: String) -> String? {
        guard let tokens = JavaScriptTokenizer.tokenize(source) else { return nil }
        let output = render(tokens)
        guard let reread = JavaScriptTokenizer.tokenize(output), sameTokens(reread, tokens) else { return nil }
        return output
    }

    /// Writes the tokens back with the least separation that keeps them apart and keeps ASI unchanged.
    static func render(_ tokens: [JavaScriptToken]) -> String {
        var output = ""
        var previous: JavaScriptToken?
        for token in tokens {
            if let previous {
                output += separator(between: previous, and: token)
            }
            output += token.text
            previous = token
        }
        return output
    }

    /// `"\n"`, `" "` or `""`: what must stand between two adjacent tokens.
    static func separator(between previous: JavaScriptToken, and next: JavaScriptToken) -> String {
        if needsNewline(between: previous, and: next) { return "\n" }
        if needsSpace(between: previous, and: next) { return " " }
        return ""
    }

    /// Whether the source's line break before `next` must be kept for automatic semicolon insertion.
    static func needsNewline(between previous: JavaScriptToken, and next: JavaScriptToken) -> Bool {
        guard next.newlineBefore else { return false }
        if previous.isRestrictedProduction {
            // `return;` and `return}` end the statement just as `return\n;` does.
            return !(next.isPunctuator(";") || next.isPunctuator("}"))
        }
        if next.isPunctuator("++") || next.isPunctuator("--") { return true }
        return previous.endsExpression && next.startsStatement
    }

    /// Whether the two tokens would be read differently if written with nothing between them.
    static func needsSpace(between previous: JavaScriptToken, and next: JavaScriptToken) -> Bool {
        guard let last = previous.text.unicodeScalars.last, let first = next.text.unicodeScalars.first else {
            return false
        }
        let startsLikeWord = JavaScriptTokenizer.isIdentifierPart(first) || first == "#"
        let isFractionNumber = next.kind == .number && first == "."
        switch previous.kind {
        case .word, .regex:
            return startsLikeWord || isFractionNumber  // `return x`, `return .5`, regex flags `/a/g in x`
        case .number:
            return startsLikeWord || first == "."  // `1 in x`, `1 .toString()`, `1 .5`
        case .string, .template:
            return false
        case .punctuator:
            if isFractionNumber && (last == "?" || last == ".") { return true }  // `a ? .5 : b` is not `?.`
            if last == "." && JavaScriptTokenizer.isDecimalDigit(first) { return true }
            if next.kind == .punctuator && JavaScriptTokenizer.isPunctuatorPrefix(previous.text + String(first)) {
                return true  // `a + +b`, `a - --b`
            }
            return gluesIntoComment(last, first)
        }
    }

    /// `//`, `/*`, and the HTML-like comments `<!--` and `-->`.
    static func gluesIntoComment(_ last: Unicode.Scalar, _ first: Unicode.Scalar) -> Bool {
        switch (last, first) {
        case ("/", "/"), ("/", "*"), ("<", "!"), ("-", ">"): return true
        default: return false
        }
    }

    /// Same kinds and texts, newlines aside.
    static func sameTokens(_ lhs: [JavaScriptToken], _ rhs: [JavaScriptToken]) -> Bool {
        lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0.kind == $1.kind && $0.text == $1.text }
    }
}
