/// A script that only builds its result from its input: the whole source is one declaration,
/// `function process(url, done) { done(PART + PART + …); }`, each part a string literal, `url`,
/// `encodeURIComponent(url)` or `encodeURI(url)`. A fifth of the v5 manifest's scripts are written so (every browser
/// that takes the link as a query parameter), and each runs on every link; evaluated here they cost a string
/// concatenation instead of a worker's JavaScriptCore run and its thread hand-off (on links never seen before, about
/// 30 µs each).
///
/// Only what is certain is recognised: any other token, a comment, an escape or whitespace outside the small set below,
/// a name that shadows a global, or more than the one declaration, and the script runs in JavaScriptCore as before. The
/// evaluation is JavaScript's: `encodeURIComponent` and `encodeURI` as ECMA-262 defines them (a Swift string holds no
/// lone surrogate, so neither can throw), the result measured in UTF-16 code units as the completion handler measures
/// it. `ScriptTemplateTests` holds every recognised script of the shared manifests to JavaScriptCore's own output.
struct ScriptTemplate: Sendable, Hashable {
    enum Part: Sendable, Hashable {
        case literal(String)
        case input
        case encodedComponent
        case encodedURI
    }

    let parts: [Part]

    /// The template `source` is, or nil when it is anything else.
    init?(source: String) {
        var parser = Parser(scalars: Array(source.unicodeScalars))
        guard let parts = parser.declaration() else { return nil }
        self.parts = parts
    }

    /// The string the script passes to its completion handler for `input`.
    func evaluate(_ input: String) -> String {
        Self.evaluate(parts, input)
    }

    /// `parts` joined for `input`, as JavaScript's `+` joins them.
    static func evaluate(_ parts: [Part], _ input: String) -> String {
        var result = ""
        for part in parts {
            switch part {
            case .literal(let text): result += text
            case .input: result += input
            case .encodedComponent: result += JavaScriptEncoding.encodeURIComponent(input)
            case .encodedURI: result += JavaScriptEncoding.encodeURI(input)
            }
        }
        return result
    }

    /// The characters of a JavaScript identifier this reader accepts: ASCII letters, digits, `_` and `$` (anything
    /// else is left to JavaScriptCore).
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
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

    /// A recursive-descent reader of the one declaration, over Unicode scalars.
    private struct Parser {
        let scalars: [Unicode.Scalar]
        var index = 0

        init(scalars: [Unicode.Scalar]) {
            self.scalars = scalars
        }

        /// `function process ( NAME , NAME ) { NAME ( PARTS ) ;? } ;?` and nothing else.
        mutating func declaration() -> [Part]? {
            guard word() == "function", word() == "process", punctuation("("), let input = name(), punctuation(","),
                let done = name(), input != done, punctuation(")"), punctuation("{"), word() == done,
                punctuation("(")
            else { return nil }
            var parts: [Part] = []
            repeat {
                guard let part = part(input: input) else { return nil }
                parts.append(part)
            } while punctuation("+")
            guard punctuation(")") else { return nil }
            _ = punctuation(";")
            guard punctuation("}") else { return nil }
            _ = punctuation(";")
            skipSpace()
            return index == scalars.count ? parts : nil
        }

        private mutating func part(input: String) -> Part? {
            skipSpace()
            guard index < scalars.count else { return nil }
            if scalars[index] == "'" || scalars[index] == "\"" { return literal().map(Part.literal) }
            guard let word = word() else { return nil }
            if word == input { return .input }
            let encoding: Part
            switch word {
            case "encodeURIComponent": encoding = .encodedComponent
            case "encodeURI": encoding = .encodedURI
            default: return nil
            }
            guard punctuation("("), self.word() == input, punctuation(")") else { return nil }
            return encoding
        }

        /// A name that is neither a reserved word nor one of the globals a part calls (which it would shadow).
        private mutating func name() -> String? {
            guard let word = word(), !Self.reserved.contains(word) else { return nil }
            return word
        }

        private static let reserved: Set<String> = [
            "break", "case", "catch", "class", "const", "continue", "debugger", "default", "delete", "do", "else",
            "enum", "export", "extends", "false", "finally", "for", "function", "if", "import", "in", "instanceof",
            "new", "null", "return", "super", "switch", "this", "throw", "true", "try", "typeof", "var", "void",
            "while", "with", "yield", "let", "static", "implements", "interface", "package", "private", "protected",
            "public", "await", "arguments", "eval", "undefined", "NaN", "Infinity", "encodeURIComponent", "encodeURI",
        ]

        /// An identifier of ASCII letters, digits, `_` and `$` (anything else is left to JavaScriptCore).
        private mutating func word() -> String? {
            skipSpace()
            let start = index
            while index < scalars.count, ScriptTemplate.isWordScalar(scalars[index]) { index += 1 }
            guard index > start, !("0"..."9").contains(scalars[start]) else { return nil }
            var word = ""
            word.unicodeScalars.append(contentsOf: scalars[start..<index])
            return word
        }

        private mutating func punctuation(_ scalar: Unicode.Scalar) -> Bool {
            skipSpace()
            guard index < scalars.count, scalars[index] == scalar else { return false }
            index += 1
            return true
        }

        /// Spaces, tabs and line breaks; a comment or any other white space ends the template (JavaScriptCore runs
        /// the script).
        private mutating func skipSpace() {
            while index < scalars.count, [" ", "\t", "\n", "\r"].contains(scalars[index]) { index += 1 }
        }

        /// A quoted string whose escapes are all plain (``LiteralReader``); anything else is left to JavaScriptCore.
        private mutating func literal() -> String? {
            var reader = LiteralReader(scalars: scalars, index: index)
            let value = reader.read()
            index = reader.index
            return value ?? nil
        }
    }
}
