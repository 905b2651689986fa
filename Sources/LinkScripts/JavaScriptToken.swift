/// One JavaScript token, with what the minifier needs to know about its surroundings.
package struct JavaScriptToken: Equatable, Sendable {
    /// The lexical kind.
    package enum Kind: Equatable, Sendable {
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
    package var kind: Kind
    /// The token exactly as in the source.
    package var text: String
    /// Whether a line terminator (or a block comment containing one) precedes the token.
    package var newlineBefore: Bool
    /// A word right after `.` or `?.`: a property name, never a keyword.
    package var isPropertyName = false
    /// For a `)` closing the head of `if`, `for`, `while`, `with`, `switch` or `catch`, that keyword: a statement
    /// follows, not an operator.
    package var closedStatementHead: String?

    package func isPunctuator(_ value: String) -> Bool { kind == .punctuator && text == value }

    /// The text of a word that is not a property name, so possibly a keyword; nil otherwise.
    package var bareWord: String? {
        kind == .word && !isPropertyName ? text : nil
    }

    /// `return`, `break`, `continue`, `throw`, `yield`, `async`, `let`: a line break after them ends the statement.
    package var isRestrictedProduction: Bool {
        bareWord.map(Self.restrictedKeywords.contains) ?? false
    }

    /// Whether a `/` after this token starts a regular expression rather than dividing.
    package var allowsRegexAfter: Bool {
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
    package var endsExpression: Bool {
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
    package var startsStatement: Bool {
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
    package static let restrictedKeywords: Set<String> = [
        "return", "break", "continue", "throw", "yield", "async", "let",
    ]

    /// Keywords after which `/` begins a regular expression.
    package static let regexKeywords: Set<String> = [
        "return", "typeof", "instanceof", "in", "of", "new", "delete", "void", "throw", "case", "do", "else", "yield",
        "await",
    ]

    /// Reserved words that can never end an expression or statement (operators and statement heads).
    package static let nonEndingKeywords: Set<String> = [
        "case", "catch", "class", "const", "default", "delete", "do", "else", "export", "extends", "finally", "for",
        "function", "if", "import", "in", "instanceof", "new", "return", "switch", "throw", "try", "typeof", "var",
        "void", "while", "with",
    ]

    /// Keywords whose parenthesised head is followed by a statement.
    package static let statementHeadKeywords: Set<String> = ["if", "for", "while", "with", "switch", "catch"]
}
