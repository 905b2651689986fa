// Scanning one token at a time: words, numbers, strings, templates, regular expressions and punctuators.

extension JavaScriptTokenizer {
    /// Reads the token at `position` and records it as the previous token.
    mutating func readToken(newlineBefore: Bool) -> JavaScriptToken? {
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
}
