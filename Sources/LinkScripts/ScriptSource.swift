/// The one conservative reading of a script's source that ``ScriptTemplate``, ``RequestPrologue`` and ``ScriptGuard``
/// share: tokens, the `process` declaration, and the templates of its input (`'…' + encodeURIComponent(url) + …`).
///
/// It reads only what it is sure of: a regular expression literal, a division, a template literal, or a word that is
/// not plain ASCII, and the source is not read (JavaScriptCore runs it). The tokens come from the project's one
/// JavaScript tokenizer (``JavaScriptTokenizer``, the minifier's too).
enum ScriptSource {
    /// A token of the conservative scan.
    enum Token: Hashable {
        case word(String)
        /// A quoted string: its value when its escapes are all plain ones, else nil.
        case string(String?)
        case number
        case punctuation(Unicode.Scalar)
    }

    /// Names a template or a prologue relies on: a parameter so named would shadow one, and the rest of a body may
    /// only call them (``RequestPrologue``).
    static let reliedOn: Set<String> = ["jsonRequest", "httpRequest", "encodeURIComponent", "encodeURI", "String"]

    /// `function process(INPUT, DONE) { BODY }`, then at most a semicolon: the whole source.
    struct Declaration {
        let input: String
        let done: String
        /// The body's tokens, without its braces.
        let body: ArraySlice<Token>
    }

    /// A source read once, for every reading (``ScriptShortcut``): its declaration, and whether it has a comment (a
    /// template is read only without one, leaving what a comment might hide to JavaScriptCore).
    struct Reading {
        let declaration: Declaration
        let hasComments: Bool
    }

    /// The declaration `source` is, or nil when it is anything else or cannot be read.
    static func read(_ source: String) -> Reading? {
        guard let (tokens, hasComments) = tokens(source), let declaration = declaration(tokens) else { return nil }
        return Reading(declaration: declaration, hasComments: hasComments)
    }

    /// The declaration `tokens` are, or nil when they are anything else.
    private static func declaration(_ tokens: [Token]) -> Declaration? {
        var reader = Reader(tokens[...])
        guard reader.take(.word("function")), reader.take(.word("process")), reader.take(.punctuation("(")),
            let input = reader.name(), reader.take(.punctuation(",")), let done = reader.name(), input != done,
            !reliedOn.contains(input), !reliedOn.contains(done), reader.take(.punctuation(")"))
        else { return nil }
        // The body ends at the brace that closes it; after it, at most a semicolon.
        let bodyStart = reader.index + 1
        guard reader.skipBlock() else { return nil }
        let bodyEnd = reader.index
        let trailing = tokens[bodyEnd...]
        guard trailing.isEmpty || trailing.elementsEqual([.punctuation(";")]) else { return nil }
        return Declaration(input: input, done: done, body: tokens[bodyStart..<bodyEnd - 1])
    }

    /// Whether nothing in `body` can change, before its first statement, what a reading relies on: each of `names` is
    /// only called (never declared, assigned, read as a value or written as a string), and no function is declared
    /// under the input's name (a hoisted declaration would replace it).
    static func onlyCalls(_ names: Set<String>, in body: ArraySlice<Token>, input: String) -> Bool {
        let declaring: Set<Token> = [.word("function"), .punctuation("*"), .word("class")]
        for index in body.indices {
            let previous = index > body.startIndex ? body[index - 1] : nil
            let next = index + 1 < body.endIndex ? body[index + 1] : nil
            switch body[index] {
            case .word(let word) where names.contains(word):
                guard next == .punctuation("("), !declaring.contains(previous ?? .punctuation(";")) else {
                    return false
                }
            case .word(input):
                if let previous, declaring.contains(previous) { return false }
            case .string(let value):
                if let value, names.contains(value) { return false }
            default:
                break
            }
        }
        return true
    }

    /// Reads tokens in order.
    struct Reader {
        let tokens: ArraySlice<Token>
        var index: Int

        init(_ tokens: ArraySlice<Token>) {
            self.tokens = tokens
            index = tokens.startIndex
        }

        var isAtEnd: Bool { index == tokens.endIndex }

        var next: Token? { isAtEnd ? nil : tokens[index] }

        mutating func take(_ token: Token) -> Bool {
            guard next == token else { return false }
            index += 1
            return true
        }

        /// Steps over a braced block, whatever it holds: false unless the next token opens one that closes.
        mutating func skipBlock() -> Bool {
            guard take(.punctuation("{")) else { return false }
            var depth = 1
            while let token = next, depth > 0 {
                index += 1
                if token == .punctuation("{") { depth += 1 }
                if token == .punctuation("}") { depth -= 1 }
            }
            return depth == 0
        }

        mutating func name() -> String? {
            guard case .word(let word) = next else { return nil }
            index += 1
            return word
        }

        /// One template of `input`: part (`+` part)*, each part a string literal of known value, the input, a name in
        /// `bound` (its template), or `encodeURIComponent(input)` / `encodeURI(input)`.
        mutating func template(
            of input: String,
            bound: [String: [ScriptTemplate.Part]] = [:]
        ) -> [ScriptTemplate.Part]? {
            var parts: [ScriptTemplate.Part] = []
            repeat {
                switch next {
                case .string(let value?):
                    index += 1
                    parts.append(.literal(value))
                case .word(input):
                    index += 1
                    parts.append(.input)
                case .word(let word) where bound[word] != nil:
                    index += 1
                    parts += bound[word]!
                case .word(let word) where word == "encodeURIComponent" || word == "encodeURI":
                    index += 1
                    guard take(.punctuation("(")), take(.word(input)), take(.punctuation(")")) else { return nil }
                    parts.append(word == "encodeURI" ? .encodedURI : .encodedComponent)
                default:
                    return nil
                }
            } while take(.punctuation("+"))
            return parts
        }
    }

    /// The tokens of `source` and whether it has a comment, or nil at anything this reading is not sure how
    /// JavaScript reads: read by the one tokenizer (``JavaScriptTokenizer``), then narrowed to what the readings
    /// rely on. A regular expression literal, a division, a template literal, a word that is not plain ASCII (an
    /// escape, a private name) ends the reading; a punctuator is one token per character (`!==` is `!`, `=`, `=`).
    static func tokens(_ source: String) -> (tokens: [Token], hasComments: Bool)? {
        guard let scan = JavaScriptTokenizer.scan(source) else { return nil }
        var tokens: [Token] = []
        tokens.reserveCapacity(scan.tokens.count)
        for token in scan.tokens {
            switch token.kind {
            case .word:
                guard let first = token.text.unicodeScalars.first, !("0"..."9").contains(first),
                    token.text.unicodeScalars.allSatisfy(isWordScalar)
                else { return nil }
                tokens.append(.word(token.text))
            case .number:
                tokens.append(.number)
            case .string:
                var literal = LiteralReader(scalars: Array(token.text.unicodeScalars), index: 0)
                guard let value = literal.read() else { return nil }
                tokens.append(.string(value))
            case .template, .regex:
                return nil
            case .punctuator:
                for scalar in token.text.unicodeScalars {
                    guard scalar != "/" else { return nil }
                    tokens.append(.punctuation(scalar))
                }
            }
        }
        return (tokens, scan.hasComments)
    }

    /// The characters of an identifier this reading accepts: ASCII letters, digits, `_` and `$`.
    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || scalar == "_" || scalar == "$"
    }

    /// Reads the quoted string that starts at `index`.
    struct LiteralReader {
        let scalars: [Unicode.Scalar]
        /// Where the string starts; after ``read()``, just past its closing quote.
        var index: Int

        /// The string's value when every escape in it is plain — `\\ \' \" \/ \n \r \t \b \f \v`, `\xHH`, `\uHHHH`
        /// outside the surrogates — `.some(nil)` when it has another escape (its value is left to JavaScriptCore),
        /// nil when it does not end on its line.
        mutating func read() -> String?? {
            let quote = scalars[index]
            index += 1
            var text: String? = ""
            while index < scalars.count {
                let scalar = scalars[index]
                index += 1
                switch scalar {
                case quote:
                    return .some(text)
                case "\n", "\r", "\u{2028}", "\u{2029}":
                    return nil
                case "\\":
                    guard index < scalars.count else { return nil }
                    let escaped = scalars[index]
                    index += 1
                    switch escaped {
                    case "\\", "'", "\"", "/": text?.unicodeScalars.append(escaped)
                    case "n": text? += "\n"
                    case "r": text? += "\r"
                    case "t": text? += "\t"
                    case "b": text? += "\u{8}"
                    case "f": text? += "\u{C}"
                    case "v": text? += "\u{B}"
                    case "x", "u":
                        if let value = hexadecimal(count: escaped == "x" ? 2 : 4), let decoded = Unicode.Scalar(value) {
                            text?.unicodeScalars.append(decoded)
                        } else {
                            text = nil
                        }
                    case let other where other.isASCII && other.value >= 0x20 && !("0"..."9").contains(other):
                        // ECMA-262's NonEscapeCharacter: `\.` is `.`.
                        text?.unicodeScalars.append(other)
                    default:
                        // A line continuation, `\0`, `\u{…}` and the like: skipped over, the value unknown.
                        text = nil
                    }
                default:
                    text?.unicodeScalars.append(scalar)
                }
            }
            return nil
        }

        private mutating func hexadecimal(count: Int) -> UInt32? {
            guard index + count <= scalars.count else { return nil }
            var value: UInt32 = 0
            for scalar in scalars[index..<index + count] {
                guard let digit = Int(String(scalar), radix: 16) else { return nil }
                value = value * 16 + UInt32(digit)
            }
            index += count
            return value
        }
    }
}
