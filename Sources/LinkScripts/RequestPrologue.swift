/// The request a script begins with, when its source makes it certain: `process` first binds a few variables to
/// templates of its input and then calls `jsonRequest` or `httpRequest` on one, as most scripts that ask an API do:
///
/// ```js
/// function process(url, done) {
///   var requestURL = 'https://api.song.link/v1-alpha.1/links?url=' + encodeURIComponent(url);
///   var res = jsonRequest(requestURL);
///   …
/// }
/// ```
///
/// Nothing before that call can throw, return or call anything of the script's own, so every run of the script asks
/// for ``url(for:)`` first. A runner uses it twice (``ScriptConfiguration/evaluatesTemplates``): online, that answer
/// is fetched before the script's first run, so the script runs once instead of twice; offline, the run's result is
/// known without running it (its request is refused, so it reports ``ScriptError/Code/needsNetwork`` whatever it does
/// next).
///
/// Only what is certain is recognised: the source is tokenised conservatively (a regular expression literal, a
/// division, a template literal, a backslash or any non-ASCII character outside strings and comments, and it is not
/// recognised), and the rest of the body may not declare, assign or name as a string any of `jsonRequest`,
/// `httpRequest`, `encodeURIComponent`, `encodeURI` and `String` (each may only be called), nor declare a function
/// named after the input (a hoisted declaration would replace it before the first statement). A script that rewrites
/// the built-ins of its own context in a way these checks cannot see (through a computed property name) can make its
/// next JavaScriptCore run differ from its first; such a script is no function of its input, which every script is
/// taken to be (`ScriptEngine` keeps outputs by input). `RequestPrologueTests` holds every recognised script of the
/// shared manifests to JavaScriptCore's first request and offline result.
struct RequestPrologue: Sendable, Hashable {
    /// The URL, as template parts (``ScriptTemplate/Part``).
    let parts: [ScriptTemplate.Part]

    /// The prologue of `source`, or nil when its first request is not certain.
    init?(source: String) {
        guard let tokens = Token.scan(source), let parts = Self.parse(tokens) else { return nil }
        self.parts = parts
    }

    /// The URL the script asks for first on `input`.
    func url(for input: String) -> String {
        ScriptTemplate.evaluate(parts, input)
    }

    private static let requestFunctions: Set<String> = ["jsonRequest", "httpRequest"]
    /// Names the prologue relies on: the rest of the source may only call them.
    private static let reliedOn: Set<String> = [
        "jsonRequest", "httpRequest", "encodeURIComponent", "encodeURI", "String",
    ]

    private static func parse(_ tokens: [Token]) -> [ScriptTemplate.Part]? {
        var index = 0
        func take(_ token: Token) -> Bool {
            guard index < tokens.count, tokens[index] == token else { return false }
            index += 1
            return true
        }
        func name() -> String? {
            guard index < tokens.count, case .word(let word) = tokens[index] else { return nil }
            index += 1
            return word
        }
        guard take(.word("function")), take(.word("process")), take(.punctuation("(")), let input = name(),
            take(.punctuation(",")), let done = name(), input != done, take(.punctuation(")")),
            take(.punctuation("{"))
        else { return nil }
        // A parameter named after a name the prologue relies on would shadow it.
        guard !reliedOn.contains(input), !reliedOn.contains(done) else { return nil }
        let bodyStart = index
        // The body ends at the brace that closes it; after it, at most a semicolon.
        var depth = 1
        var bodyEnd = index
        while bodyEnd < tokens.count, depth > 0 {
            if tokens[bodyEnd] == .punctuation("{") { depth += 1 }
            if tokens[bodyEnd] == .punctuation("}") { depth -= 1 }
            bodyEnd += 1
        }
        guard depth == 0 else { return nil }
        let trailing = tokens[bodyEnd...]
        guard trailing.isEmpty || trailing.elementsEqual([.punctuation(";")]) else { return nil }
        let body = tokens[bodyStart..<bodyEnd - 1]
        guard isSafe(body, input: input) else { return nil }

        var bound: [String: [ScriptTemplate.Part]] = [:]
        let unbindable: Set<String> = reliedOn.union([input, done, "var", "function", "process"])
        // One template: part ('+' part)*, each part a literal, the input, a bound name or an encoder of the input.
        func expression() -> [ScriptTemplate.Part]? {
            var parts: [ScriptTemplate.Part] = []
            repeat {
                guard index < tokens.count else { return nil }
                switch tokens[index] {
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
        func request() -> [ScriptTemplate.Part]? {
            guard let function = name(), requestFunctions.contains(function), take(.punctuation("(")),
                let url = expression(), take(.punctuation(")"))
            else { return nil }
            return url
        }
        while index < bodyEnd - 1 {
            if take(.word("var")) {
                guard let variable = name(), !unbindable.contains(variable), bound[variable] == nil,
                    take(.punctuation("="))
                else { return nil }
                if case .word(let word) = tokens[index], requestFunctions.contains(word) { return request() }
                guard let value = expression(), take(.punctuation(";")) else { return nil }
                bound[variable] = value
            } else {
                return request()
            }
        }
        return nil
    }

    /// Whether nothing in the body can change, before its first statement, what the prologue relies on.
    private static func isSafe(_ body: ArraySlice<Token>, input: String) -> Bool {
        let declaring: Set<Token> = [.word("function"), .punctuation("*"), .word("class")]
        for index in body.indices {
            let previous = index > body.startIndex ? body[index - 1] : nil
            let next = index + 1 < body.endIndex ? body[index + 1] : nil
            switch body[index] {
            case .word(let word) where reliedOn.contains(word):
                guard next == .punctuation("("), !declaring.contains(previous ?? .punctuation(";")) else {
                    return false
                }
            case .word(input):
                if let previous, declaring.contains(previous) { return false }
            case .string(let value):
                if let value, reliedOn.contains(value) { return false }
            default:
                break
            }
        }
        return true
    }

    /// A token of the conservative scan.
    enum Token: Hashable {
        case word(String)
        /// A quoted string: its value when its escapes are all plain ones, else nil.
        case string(String?)
        case number
        case punctuation(Unicode.Scalar)

        /// The tokens of `source`, or nil at anything the scan is not sure how JavaScript reads.
        static func scan(_ source: String) -> [Token]? {
            let scalars = Array(source.unicodeScalars)
            var tokens: [Token] = []
            var index = 0
            while index < scalars.count {
                let scalar = scalars[index]
                switch scalar {
                case " ", "\t", "\n", "\r":
                    index += 1
                case "/":
                    // A comment; any other slash (a division or a regular expression literal) ends the scan.
                    guard index + 1 < scalars.count else { return nil }
                    if scalars[index + 1] == "/" {
                        while index < scalars.count, scalars[index] != "\n", scalars[index] != "\r" { index += 1 }
                    } else if scalars[index + 1] == "*" {
                        index += 2
                        while index + 1 < scalars.count, !(scalars[index] == "*" && scalars[index + 1] == "/") {
                            index += 1
                        }
                        guard index + 1 < scalars.count else { return nil }
                        index += 2
                    } else {
                        return nil
                    }
                case "'", "\"":
                    var literal = ScriptTemplate.LiteralReader(scalars: scalars, index: index)
                    guard let value = literal.read() else { return nil }
                    tokens.append(.string(value))
                    index = literal.index
                case "a"..."z", "A"..."Z", "_", "$":
                    let start = index
                    while index < scalars.count, ScriptTemplate.isWordScalar(scalars[index]) { index += 1 }
                    var word = ""
                    word.unicodeScalars.append(contentsOf: scalars[start..<index])
                    tokens.append(.word(word))
                case "0"..."9":
                    while index < scalars.count,
                        ScriptTemplate.isWordScalar(scalars[index]) || scalars[index] == "."
                    {
                        index += 1
                    }
                    tokens.append(.number)
                case "`", "\\":
                    return nil
                default:
                    guard scalar.isASCII, scalar.value >= 0x21 else { return nil }
                    tokens.append(.punctuation(scalar))
                    index += 1
                }
            }
            return tokens
        }
    }
}
