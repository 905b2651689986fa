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
/// Only what is certain is recognised: the source is read conservatively (``ScriptSource``), and the rest of the body
/// may not declare, assign or name as a string any of `jsonRequest`, `httpRequest`, `encodeURIComponent`, `encodeURI`
/// and `String` (each may only be called), nor declare a function named after the input (a hoisted declaration would replace it before the first statement). A script that rewrites
/// the built-ins of its own context in a way these checks cannot see (through a computed property name) can make its
/// next JavaScriptCore run differ from its first; such a script is no function of its input, which every script is
/// taken to be (`ScriptEngine` keeps outputs by input). `RequestPrologueTests` holds every recognised script of the
/// shared manifests to JavaScriptCore's first request and offline result.
struct RequestPrologue: Sendable, Hashable {
    /// The URL, as template parts (``ScriptTemplate/Part``).
    let parts: [ScriptTemplate.Part]

    /// The prologue of a script `declaration`, or nil when its first request is not certain.
    init?(_ declaration: ScriptSource.Declaration) {
        guard ScriptSource.onlyCalls(ScriptSource.reliedOn, in: declaration.body, input: declaration.input),
            let parts = Self.firstRequest(in: declaration)
        else { return nil }
        self.parts = parts
    }

    /// The URL the script asks for first on `input`.
    func url(for input: String) -> String {
        ScriptTemplate.evaluate(parts, input)
    }

    private static let requestFunctions: Set<String> = ["jsonRequest", "httpRequest"]

    /// `(var NAME = TEMPLATE;)* (var NAME =)? REQUEST(TEMPLATE)` at the start of the body: the request's URL.
    private static func firstRequest(in declaration: ScriptSource.Declaration) -> [ScriptTemplate.Part]? {
        var body = ScriptSource.Reader(declaration.body)
        var bound: [String: [ScriptTemplate.Part]] = [:]
        let unbindable = ScriptSource.reliedOn.union([declaration.input, declaration.done, "var", "function"])
        while body.take(.word("var")) {
            guard let variable = body.name(), !unbindable.contains(variable), bound[variable] == nil,
                body.take(.punctuation("="))
            else { return nil }
            if case .word(let word) = body.next, requestFunctions.contains(word) { break }
            guard let value = body.template(of: declaration.input, bound: bound), body.take(.punctuation(";")) else {
                return nil
            }
            bound[variable] = value
        }
        guard let function = body.name(), requestFunctions.contains(function), body.take(.punctuation("(")),
            let url = body.template(of: declaration.input, bound: bound), body.take(.punctuation(")"))
        else { return nil }
        return url
    }
}
