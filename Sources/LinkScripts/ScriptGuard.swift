import Foundation
import LinkMatching

/// A script that tests its input with a regular expression first and, when it does not match, only builds its result
/// from the input, as the v5 manifest's Safari browser does on every link:
///
/// ```js
/// function process(url, done) {
///   var found = RegExp('https?://((www\.)?apple\.news|news\.apple\.com)').exec(url);
///   if (found != null && found.length > 1) { … } else { done(url); }
/// }
/// ```
///
/// When the expression does not match the input, the result is the `else` branch's template (``ScriptTemplate``),
/// evaluated without JavaScriptCore; when it matches, or when this reading cannot be sure, the script runs in
/// JavaScriptCore as before.
///
/// Only what is certain is recognised (read by ``ScriptSource``): the first statement binds a variable to
/// `RegExp(STRING).exec(INPUT)` (or `new RegExp`, one argument, no flags); the condition is that variable, or it
/// compared `!= null` / `!== null`, optionally followed by `&& VARIABLE.length` compared with a number, so a failed
/// match makes it false without evaluating anything else; the `else` branch is one call of the completion handler
/// with a template. Nothing in the body may declare, assign or name as a string `RegExp` or a name the template relies
/// on (``ScriptSource/onlyCalls(_:in:input:)``). The expression is read by the project's one JavaScript-to-ICU
/// translator (LinkMatching's `JavaScriptRegex`, which the cleaner's catalog goes through too: what it cannot
/// translate faithfully is no guard), and the input must be ASCII (JavaScript matches UTF-16 code units, ICU code
/// points: the two agree on ASCII). `ScriptGuardTests` holds every recognised script of the shared manifests to
/// JavaScriptCore's own output.
///
/// The expression runs as the matcher runs a rule's regex (LinkMatching's `CompiledRegex`, stopped at a deadline the
/// caller gives: the matcher's per-regex budget). An expression that nests repetition (`(a+)+b`, the matcher's own
/// `RedosHeuristic`) is no guard at all, and one that runs out of time decides nothing: either way the script runs
/// in JavaScriptCore, which gives its own answer or its own time-out, so a hostile link costs the guard at most its
/// budget and the answer is JavaScriptCore's.
struct ScriptGuard: Sendable, Hashable {
    /// The regular expression's source, as the script's string gives it.
    let pattern: String
    /// What the script completes with when the expression does not match.
    let otherwise: ScriptTemplate
    private let expression: GuardExpression

    /// The guard of a script `declaration`, or nil when it has none this reading is sure of.
    init?(_ declaration: ScriptSource.Declaration) {
        guard
            ScriptSource.onlyCalls(
                ScriptSource.reliedOn.union(["RegExp"]),
                in: declaration.body,
                input: declaration.input
            )
        else { return nil }
        var body = ScriptSource.Reader(declaration.body)
        // var FOUND = [new] RegExp(STRING).exec(INPUT);
        guard body.take(.word("var")), let found = body.name(),
            !ScriptSource.reliedOn.union(["RegExp", declaration.input, declaration.done]).contains(found),
            body.take(.punctuation("="))
        else { return nil }
        _ = body.take(.word("new"))
        guard body.take(.word("RegExp")), body.take(.punctuation("(")), case .string(let pattern?) = body.next else {
            return nil
        }
        body.index += 1
        guard body.take(.punctuation(")")), body.take(.punctuation(".")), body.take(.word("exec")),
            body.take(.punctuation("(")), body.take(.word(declaration.input)), body.take(.punctuation(")")),
            body.take(.punctuation(";")),
            // if (CONDITION) { … } else { DONE(TEMPLATE); }
            body.take(.word("if")), body.take(.punctuation("(")), Self.condition(&body, found: found),
            body.take(.punctuation(")")), body.skipBlock(), body.take(.word("else")),
            body.take(.punctuation("{")), body.take(.word(declaration.done)), body.take(.punctuation("(")),
            let otherwise = body.template(of: declaration.input), body.take(.punctuation(")"))
        else { return nil }
        _ = body.take(.punctuation(";"))
        guard body.take(.punctuation("}")), body.isAtEnd, let expression = GuardExpression(pattern) else { return nil }
        self.pattern = pattern
        self.otherwise = ScriptTemplate(parts: otherwise)
        self.expression = expression
    }

    /// Whether the expression certainly finds no match in `input` before `deadline`, so the script completes with
    /// ``otherwise``; false when it matches, when the input is not ASCII, or when the expression ran out of time or
    /// failed (the script then runs in JavaScriptCore).
    func fails(on input: String, deadline: ContinuousClock.Instant) -> Bool {
        guard input.utf8.allSatisfy({ $0 < 0x80 }) else { return false }
        return expression.certainlyMisses(input, deadline: deadline)
    }

    /// `FOUND`, `FOUND != null` or `FOUND !== null`, then optionally `&& FOUND.length OP NUMBER`.
    private static func condition(_ body: inout ScriptSource.Reader, found: String) -> Bool {
        guard body.take(.word(found)) else { return false }
        if body.take(.punctuation("!")) {
            guard body.take(.punctuation("=")) else { return false }
            _ = body.take(.punctuation("="))
            guard body.take(.word("null")) else { return false }
        }
        guard body.take(.punctuation("&")) else { return true }
        guard body.take(.punctuation("&")), body.take(.word(found)), body.take(.punctuation(".")),
            body.take(.word("length"))
        else { return false }
        var operators = 0
        while case .punctuation(let scalar) = body.next, "<>=!".unicodeScalars.contains(scalar) {
            body.index += 1
            operators += 1
        }
        return (1...3).contains(operators) && body.take(.number)
    }

    static func == (lhs: ScriptGuard, rhs: ScriptGuard) -> Bool {
        lhs.pattern == rhs.pattern && lhs.otherwise == rhs.otherwise
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(pattern)
        hasher.combine(otherwise)
    }
}

/// A guard's expression: translated from JavaScript to ICU by the project's one translator (LinkMatching's
/// `JavaScriptRegex`, LinkCleaning's too), refused when it nests repetition, and compiled once as the matcher compiles
/// a rule's regex.
private struct GuardExpression: Sendable {
    private let expression: CompiledRegex

    init?(_ pattern: String) {
        // `RegExp(source)`: no flags, so not case-insensitive.
        guard let translated = try? JavaScriptRegex.translate(pattern, caseInsensitive: false),
            !RedosHeuristic.isSuspicious(translated),
            let expression = try? CompiledRegex(translated)
        else { return nil }
        self.expression = expression
    }

    /// Whether the expression finds no match in `input`, known before `deadline`.
    func certainlyMisses(_ input: String, deadline: ContinuousClock.Instant) -> Bool {
        guard case .matches(let found) = expression.firstMatch(in: input, deadline: deadline) else { return false }
        return found.isEmpty
    }
}
