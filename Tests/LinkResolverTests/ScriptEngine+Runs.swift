import LinkResolver
import LinkScripts

extension ScriptEngine {
    /// Compiles `source` for `rule` and runs it once on `input` with a time limit, as a resolution would (the engine's
    /// tests: runaway policy, kept results).
    func run(
        source: String,
        input: String = "https://a.example/",
        limit: Duration = .seconds(5),
        rule: String = "/actions/0/formats/0"
    ) async throws -> Result<String?, ScriptError> {
        let script = try runner.compile(source, kind: .script2, name: rule)
        return await run(script, input: input, deadline: .now + limit)
    }
}
