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

/// One JavaScript token, with what the minifier needs to know about its surroundings.
struct JavaScriptToken: Equatable, Sendable {
    /// The lexical kind.
    enum Kind: Equatable, Sendable {
        /// An identifier or keyword (also a private name such as `#field`).
        case word
        /// A numeric literal (`1`, `.5`, `0x1F`, `1e-3`, `10n`).
        case number
        /// A single- or double-quoted string literal, quotes included.
        case string
        /// A whole template literal, backticks and every `${ }` substitution included.
        case template
        /// A regular expression literal, slashes and flags included.
        case regex
        /// An operator or other punctuation.
        case punctuator
    }

    /// The lexical kind.
    var kind: Kind
    /// The token exactly as in the source.
    var text: String
    /// Whether a line terminator (or a block comment containing one) precedes the token.
    var newlineBefore: Bool
    /// A word right after `.` or `?.`: a property name, never a keyword.
    var isPropertyName = false
    /// For a `)` closing the head of `if`, `for`, `while`, `with`, `switch` or `catch`, that keyword: a statement
    /// follows, not an operator.
    var closedStatementHead: String?

    func isPunctuator(_ value: String) -> Bool { kind == .punctuator && text == value }

    /// The text of a word that is not a property name, so possibly a keyword; nil otherwise.
    var bareWord: String? {
        kind == .word && !isPropertyName ? text : nil
    }

    /// `return`, `break`, `continue`, `throw`, `yield`, `async`, `let`: a line break after them ends the statement.
    var isRestrictedProduction: Bool {
        bareWord.map(Self.restrictedKeywords.contains) ?? false
    }

    /// Whether a `/` after this token starts a regular expression rather than dividing.
    var allowsRegexAfter: Bool {
        switch kind {
        case .word:
            guard let word = bareWord else { return false }
            return Self.regexKeywords.contains(word) || Self.nonEndingKeywords.contains(word)
        case .number, .string, .template, .regex:
            return false
        case .punctuator:
            switch text {
            case ")": return closedStatementHead != nil
            case "]", "++", "--": return false
            default: return true  // including `}`: a block usually ends there
            }
        }
    }

    /// Whether the token can be the last one of an expression or statement.
    var endsExpression: Bool {
        switch kind {
        case .word:
            guard let word = bareWord else { return true }
            return !Self.nonEndingKeywords.contains(word)
        case .number, .string, .template, .regex:
            return true
        case .punctuator:
            switch text {
            case ")":
                // `do … while (x)` ends a statement; telling it from a `while` loop's head needs more context.
                return closedStatementHead == nil || closedStatementHead == "while"
            case "]", "}", "++", "--": return true
            default: return false
            }
        }
    }

    /// Whether the token can begin a new statement, so that ASI may have ended the one before it.
    var startsStatement: Bool {
        switch kind {
        case .word:
            return text != "in" && text != "instanceof"
        case .number, .string, .template, .regex:
            return true
        case .punctuator:
            return ["{", "!", "~", "++", "--", "@"].contains(text)
        }
    }

    /// Keywords after which a line break ends the statement (restricted productions, plus `async` and `let`).
    static let restrictedKeywords: Set<String> = ["return", "break", "continue", "throw", "yield", "async", "let"]

    /// Keywords after which `/` begins a regular expression.
    static let regexKeywords: Set<String> = [
        "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield",
        "await",
    ]

    /// Reserved words that can never end an expression or statement (operators and statement heads).
    static let nonEndingKeywords: Set<String> = [
        "case", "catch", "class", "const", "default", "delete", "do", "else", "export", "extends", "finally", "for",
        "function", "if", "import", "in", "instanceof", "new", "return", "switch", "throw", "try", "typeof", "var",
        "void", "while", "with",
    ]

    /// Keywords whose parenthesised head is followed by a statement.
    static let statementHeadKeywords: Set<String> = ["if", "for", "while", "with", "switch", "catch"]
}

/// Splits JavaScript into ``JavaScriptToken``s, skipping whitespace and comments.
///
/// Whether `/` starts a regular expression is decided from the previous token (see
/// ``JavaScriptToken/allowsRegexAfter``): after `)` it divides unless the parenthesis closed an `if (…)`-like head;
/// after `}` it starts a regular expression (a block ending is far more common than `{…} / x`).
///
/// Returns nil for anything it cannot read safely: unterminated strings, comments, templates or regular expressions,
/// unknown characters, HTML-like comments (`<!--`, `-->`), a `#!` line, or templates nested deeper than
/// ``maximumTemplateDepth``.
struct JavaScriptTokenizer {
    /// Template literals nested deeper than this are refused instead of recursing further.
    static let maximumTemplateDepth = 64

    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var previous: JavaScriptToken?
    /// One entry per open `(`: the keyword when it opened a statement head such as `if (`.
    private var openParentheses: [String?] = []
    private var templateDepth = 0

    private init(_ source: String) {
        scalars = Array(source.unicodeScalars)
    }

    /// The tokens of `source`, or nil when it cannot be tokenized safely.
    static func tokenize(_ source: String) -> [JavaScriptToken]? {
        var tokenizer = JavaScriptTokenizer(source)
        return tokenizer.readAll()
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
    private mutating func skipTrivia() -> Bool? {
        var newline = false
        while let scalar = scalar(at: position) {
            if Self.isLineTerminator(scalar) {
                newline = true
                position += 1
            } else if Self.isWhitespace(scalar) {
                position += 1
            } else if scalar == "/" && self.scalar(at: position + 1) == "/" {
                skipLineComment()
            } else if scalar == "/" && self.scalar(at: position + 1) == "*" {
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

    // MARK: Tokens

    /// Reads the token at `position` and records it as the previous token.
    private mutating func readToken(newlineBefore: Bool) -> JavaScriptToken? {
        let start = position
        guard let kind = scanToken() else { return nil }
        var token = JavaScriptToken(kind: kind, text: text(from: start), newlineBefore: newlineBefore)
        annotate(&token)
        previous = token
        return token
    }

    /// Advances over one token and returns its kind.
    private mutating func scanToken() -> JavaScriptToken.Kind? {
        guard let first = scalar(at: position) else { return nil }
        if Self.isIdentifierStart(first) || first == "\\" || first == "#" {
            return scanWord() ? .word : nil
        }
        if Self.isDecimalDigit(first) || (first == "." && scalar(at: position + 1).map(Self.isDecimalDigit) == true) {
            scanNumber()
            return .number
        }
        if first == "'" || first == "\"" {
            return scanString(quote: first) ? .string : nil
        }
        if first == "`" {
            return scanTemplate() ? .template : nil
        }
        if first == "/" && (previous?.allowsRegexAfter ?? true) {
            return scanRegex() ? .regex : nil
        }
        return scanPunctuator() ? .punctuator : nil
    }

    /// Marks property names and statement-head parentheses, which change how later tokens are read.
    private mutating func annotate(_ token: inout JavaScriptToken) {
        switch token.kind {
        case .word:
            token.isPropertyName = previous.map { $0.isPunctuator(".") || $0.isPunctuator("?.") } ?? false
        case .punctuator where token.text == "(":
            let head = previous?.bareWord.flatMap { JavaScriptToken.statementHeadKeywords.contains($0) ? $0 : nil }
            openParentheses.append(head)
        case .punctuator where token.text == ")":
            token.closedStatementHead = openParentheses.popLast() ?? nil
        default:
            break
        }
    }

    /// An identifier, keyword or `#private` name, with `\u` escapes.
    private mutating func scanWord() -> Bool {
        let start = position
        if scalar(at: position) == "#" { position += 1 }
        while let scalar = scalar(at: position) {
            if scalar == "\\" {
                guard scanUnicodeEscape() else { return false }
            } else if Self.isIdentifierPart(scalar) {
                position += 1
            } else {
                break
            }
        }
        let nameStart = scalars[start] == "#" ? start + 1 : start
        return position > nameStart
    }

    /// `\uXXXX` or `\u{X…}` inside an identifier.
    private mutating func scanUnicodeEscape() -> Bool {
        guard scalar(at: position + 1) == "u" else { return false }
        position += 2
        if scalar(at: position) == "{" {
            position += 1
            let digitsStart = position
            while let scalar = scalar(at: position), Self.isHexDigit(scalar) { position += 1 }
            guard position > digitsStart, scalar(at: position) == "}" else { return false }
            position += 1
            return true
        }
        for _ in 0..<4 {
            guard let scalar = scalar(at: position), Self.isHexDigit(scalar) else { return false }
            position += 1
        }
        return true
    }

    /// A numeric literal; trailing identifier characters (`n`, hex digits, or an error) stay part of it.
    private mutating func scanNumber() {
        let radixPrefixes: Set<Unicode.Scalar> = ["x", "X", "o", "O", "b", "B"]
        if scalar(at: position) == "0", let second = scalar(at: position + 1), radixPrefixes.contains(second) {
            position += 2
        } else {
            skipDigits()
            if scalar(at: position) == "." {
                position += 1
                skipDigits()
            }
            skipExponent()
        }
        while let scalar = scalar(at: position), Self.isIdentifierPart(scalar) { position += 1 }
    }

    private mutating func skipDigits() {
        while let scalar = scalar(at: position), Self.isDecimalDigit(scalar) || scalar == "_" { position += 1 }
    }

    private mutating func skipExponent() {
        guard let marker = scalar(at: position), marker == "e" || marker == "E" else { return }
        var next = position + 1
        if let sign = scalar(at: next), sign == "+" || sign == "-" { next += 1 }
        guard let digit = scalar(at: next), Self.isDecimalDigit(digit) else { return }
        position = next
        skipDigits()
    }

    /// A quoted string, with escapes and line continuations; a raw line break leaves it unterminated.
    private mutating func scanString(quote: Unicode.Scalar) -> Bool {
        position += 1
        while let scalar = scalar(at: position) {
            switch scalar {
            case quote:
                position += 1
                return true
            case "\\":
                guard skipEscape() else { return false }
            case "\n", "\r":
                return false
            default:
                position += 1
            }
        }
        return false
    }

    /// Skips a backslash and the character it escapes (`\r\n` counting as one).
    private mutating func skipEscape() -> Bool {
        guard let escaped = scalar(at: position + 1) else { return false }
        position += escaped == "\r" && scalar(at: position + 2) == "\n" ? 3 : 2
        return true
    }

    /// A whole template literal; each `${ }` substitution is tokenized to find its closing brace.
    private mutating func scanTemplate() -> Bool {
        guard templateDepth < Self.maximumTemplateDepth else { return false }
        templateDepth += 1
        defer { templateDepth -= 1 }
        position += 1
        while let scalar = scalar(at: position) {
            if scalar == "`" {
                position += 1
                return true
            } else if scalar == "\\" {
                guard skipEscape() else { return false }
            } else if scalar == "$" && self.scalar(at: position + 1) == "{" {
                position += 2
                guard scanSubstitution() else { return false }
            } else {
                position += 1
            }
        }
        return false
    }

    /// The expression inside `${ … }`, up to and including its closing brace.
    private mutating func scanSubstitution() -> Bool {
        let outerPrevious = previous
        let outerParentheses = openParentheses
        defer {
            previous = outerPrevious
            openParentheses = outerParentheses
        }
        previous = nil
        openParentheses = []
        var braceDepth = 0
        while true {
            guard let newline = skipTrivia(), position < scalars.count else { return false }
            if scalar(at: position) == "}" && braceDepth == 0 {
                position += 1
                return true
            }
            guard let token = readToken(newlineBefore: newline) else { return false }
            if token.isPunctuator("{") { braceDepth += 1 }
            if token.isPunctuator("}") { braceDepth -= 1 }
        }
    }

    /// A regular expression literal: `/` inside a class `[…]` does not end it; flags follow.
    private mutating func scanRegex() -> Bool {
        position += 1
        var inClass = false
        while let scalar = scalar(at: position) {
            if Self.isLineTerminator(scalar) { return false }
            position += 1
            switch scalar {
            case "\\":
                guard let escaped = self.scalar(at: position), !Self.isLineTerminator(escaped) else { return false }
                position += 1
            case "[":
                inClass = true
            case "]":
                inClass = false
            case "/" where !inClass:
                while let flag = self.scalar(at: position), Self.isIdentifierPart(flag) { position += 1 }
                return true
            default:
                break
            }
        }
        return false
    }

    /// The longest punctuator at `position`; `?.` before a digit is `?` (as in `a?.5:b`); `<!--` is refused.
    private mutating func scanPunctuator() -> Bool {
        if hasPrefix("<!--") { return false }
        for punctuator in Self.punctuators where hasPrefix(punctuator) {
            if punctuator == "?.", let next = scalar(at: position + 2), Self.isDecimalDigit(next) { continue }
            position += punctuator.unicodeScalars.count
            return true
        }
        return false
    }

    // MARK: Characters

    /// Every punctuator, longest first so the first match is the longest.
    static let punctuators: [String] = [
        ">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
        "=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=",
        "^=", "<<", ">>", "**",
        "{", "}", "(", ")", "[", "]", ";", ",", "<", ">", "+", "-", "*", "/", "%", "&", "|", "^", "!", "~", "?",
        ":", "=", ".", "@",
    ]

    /// Whether some punctuator begins with `text`, so that a lexer would read past it.
    static func isPunctuatorPrefix(_ text: String) -> Bool {
        punctuators.contains { $0.hasPrefix(text) }
    }

    private func scalar(at index: Int) -> Unicode.Scalar? {
        index >= 0 && index < scalars.count ? scalars[index] : nil
    }

    private func hasPrefix(_ text: String) -> Bool {
        var index = position
        for expected in text.unicodeScalars {
            guard scalar(at: index) == expected else { return false }
            index += 1
        }
        return true
    }

    private func text(from start: Int) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<position])
        return String(view)
    }

    static func isLineTerminator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x0D, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// Tab, vertical tab, form feed, space, no-break space, byte order mark and the other Unicode space separators.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0B, 0x0C, 0x20, 0xA0, 0xFEFF, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    static func isDecimalDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }

    static func isHexDigit(_ scalar: Unicode.Scalar) -> Bool {
        isDecimalDigit(scalar) || ("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)
    }

    /// ASCII letters, `$`, `_`, and any non-ASCII character that is not whitespace (the tokenizer is lenient there).
    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "$" || scalar == "_"
        }
        return !isWhitespace(scalar) && !isLineTerminator(scalar)
    }

    /// Identifier starts, digits, and `\` (which begins a `\u` escape).
    static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || isDecimalDigit(scalar) || scalar == "\\"
    }
}
