/// Splits JavaScript into ``JavaScriptToken``s, skipping whitespace and comments: the project's one JavaScript
/// tokenizer, for the minifier (RuleTooling) and for the conservative reading of scripts (``ScriptSource``).
///
/// Whether `/` starts a regular expression is decided from the previous token (see
/// ``JavaScriptToken/allowsRegexAfter``): after `)` it divides unless the parenthesis closed an `if (…)`-like head;
/// after `}` it starts a regular expression (a block ending is far more common than `{…} / x`).
///
/// Returns nil for anything it cannot read safely: unterminated strings, comments, templates or regular expressions,
/// unknown characters, HTML-like comments (`<!--`, `-->`), a `#!` line, or templates nested deeper than
/// ``maximumTemplateDepth``.
package struct JavaScriptTokenizer {
    /// Template literals nested deeper than this are refused instead of recursing further.
    package static let maximumTemplateDepth = 64

    let scalars: [Unicode.Scalar]
    var position = 0
    var previous: JavaScriptToken?
    /// One entry per open `(`: the keyword when it opened a statement head such as `if (`.
    var openParentheses: [String?] = []
    var templateDepth = 0
    /// Whether a comment has been skipped.
    var sawComment = false

    private init(_ source: String) {
        scalars = Array(source.unicodeScalars)
    }

    /// The tokens of `source`, or nil when it cannot be tokenized safely.
    package static func tokenize(_ source: String) -> [JavaScriptToken]? {
        scan(source)?.tokens
    }

    /// The tokens of `source` and whether it has a comment, or nil when it cannot be tokenized safely.
    package static func scan(_ source: String) -> (tokens: [JavaScriptToken], hasComments: Bool)? {
        var tokenizer = JavaScriptTokenizer(source)
        guard let tokens = tokenizer.readAll() else { return nil }
        return (tokens, tokenizer.sawComment)
    }

    private mutating func readAll() -> [JavaScriptToken]? {
        var tokens: [JavaScriptToken] = []
        while true {
            guard let newline = skipTrivia() else { return nil }
            if position >= scalars.count { return tokens }
            guard let token = readToken(newlineBefore: newline) else { return nil }
            tokens.append(token)
        }
    }

    // MARK: Trivia

    /// Skips whitespace and comments; returns whether a line break was crossed, or nil for an unterminated comment
    /// or an HTML-like `-->` comment.
    mutating func skipTrivia() -> Bool? {
        var newline = false
        while let scalar = scalar(at: position) {
            if Self.isLineTerminator(scalar) {
                newline = true
                position += 1
            } else if Self.isWhitespace(scalar) {
                position += 1
            } else if scalar == "/" && self.scalar(at: position + 1) == "/" {
                sawComment = true
                skipLineComment()
            } else if scalar == "/" && self.scalar(at: position + 1) == "*" {
                sawComment = true
                guard let crossedLine = skipBlockComment() else { return nil }
                newline = newline || crossedLine
            } else {
                break
            }
        }
        if (newline || previous == nil) && hasPrefix("-->") { return nil }
        return newline
    }

    private mutating func skipLineComment() {
        while let scalar = scalar(at: position), !Self.isLineTerminator(scalar) {
            position += 1
        }
    }

    /// Skips `/* … */`; returns whether it spans lines, or nil when unterminated.
    private mutating func skipBlockComment() -> Bool? {
        position += 2
        var crossedLine = false
        while let scalar = scalar(at: position) {
            if scalar == "*" && self.scalar(at: position + 1) == "/" {
                position += 2
                return crossedLine
            }
            crossedLine = crossedLine || Self.isLineTerminator(scalar)
            position += 1
        }
        return nil
    }

    // MARK: Cursor

    func scalar(at index: Int) -> Unicode.Scalar? {
        index >= 0 && index < scalars.count ? scalars[index] : nil
    }

    func hasPrefix(_ text: String) -> Bool {
        var index = position
        for expected in text.unicodeScalars {
            guard scalar(at: index) == expected else { return false }
            index += 1
        }
        return true
    }

    func text(from start: Int) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<position])
        return String(view)
    }
}
