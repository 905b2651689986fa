/// A script that only builds its result from its input: the whole source is one declaration,
/// `function process(url, done) { done(PART + PART + …); }`, each part a string literal, `url`,
/// `encodeURIComponent(url)` or `encodeURI(url)`. A fifth of the v5 manifest's scripts are written so (every browser
/// that takes the link as a query parameter), and each runs on every link; evaluated here they cost a string
/// concatenation instead of a worker's JavaScriptCore run and its thread hand-off (on links never seen before, about
/// 30 µs each).
///
/// Only what is certain is recognised: any other token, a comment, an escape outside the plain ones
/// (``ScriptSource/LiteralReader``), a parameter that shadows an encoder, or more than the one declaration, and the
/// script runs in JavaScriptCore as before. The evaluation is JavaScript's: `encodeURIComponent` and `encodeURI` as
/// ECMA-262 defines them (a Swift string holds no lone surrogate, so neither can throw), the result measured in UTF-16
/// code units as the completion handler measures it. `ScriptTemplateTests` holds every recognised script of the shared manifests to JavaScriptCore's own output.
struct ScriptTemplate: Sendable, Hashable {
    enum Part: Sendable, Hashable {
        case literal(String)
        case input
        case encodedComponent
        case encodedURI
    }

    let parts: [Part]

    init(parts: [Part]) {
        self.parts = parts
    }

    /// The template a script `declaration` is, or nil when it is anything else (read by ``ScriptSource``; the
    /// caller leaves a source with a comment to JavaScriptCore).
    init?(_ declaration: ScriptSource.Declaration) {
        var body = ScriptSource.Reader(declaration.body)
        guard body.take(.word(declaration.done)), body.take(.punctuation("(")),
            let parts = body.template(of: declaration.input), body.take(.punctuation(")"))
        else { return nil }
        _ = body.take(.punctuation(";"))
        guard body.isAtEnd else { return nil }
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
}
