import HTTPTypes
import LinkMatching
import LinkResolution
import LinkRules
import LinkScripts
import WebLinks

extension Resolver {
    /// Runs every script opening until `deadline`, filling in `result` in place; each gets the input its rule
    /// matched, and all share `network` (one resolution's answers: eight scripts asking for the same URL cause one
    /// request). Returns how long the outputs may be kept together. Outputs kept from earlier runs are filled in first,
    /// templates are evaluated, and the scripts left go to a worker together (one hand-over and one back for all of a
    /// link's scripts; `ScriptEngine.runReporting(_:deadline:network:)`).
    func render(
        _ result: inout [Opening],
        link: Link,
        headers: HTTPFields?,
        engine: ScriptEngine,
        scripts: CompiledScripts,
        network: ScriptFetches?,
        deadline: ContinuousClock.Instant
    ) async -> Cacheability {
        var pending: [(index: Int, script: CompiledScript, input: String)] = []
        for index in result.indices where result[index].needsScript {
            switch prepare(&result[index], link: link, headers: headers, scripts: scripts) {
            case .some((let compiled, let input)):
                pending.append((index, compiled, input))
            case nil:
                break
            }
        }
        if pending.isEmpty { return .unlimited }
        let runs = await engine.runReporting(
            pending.map { ($0.script, $0.input) },
            deadline: deadline,
            network: network
        )
        var cacheability = Cacheability.unlimited
        for (job, run) in zip(pending, runs) {
            Self.fill(&result[job.index], with: run.output)
            cacheability = cacheability.combined(with: run.cacheability)
        }
        return cacheability
    }

    /// Runs one script opening's script until `deadline` (the test runner's cases come through here too).
    package func render(
        _ opening: Opening,
        link: Link,
        headers: HTTPFields? = nil,
        deadline: ContinuousClock.Instant
    ) async -> Opening {
        guard let engine, let scripts, opening.needsScript else { return opening }
        var rendered = opening
        guard let (compiled, input) = prepare(&rendered, link: link, headers: headers, scripts: scripts) else {
            return rendered
        }
        Self.fill(&rendered, with: await engine.run(compiled, input: input, deadline: deadline))
        return rendered
    }

    /// Marks a script opening as run and gives its compiled script and input, or fills in why it cannot run.
    private func prepare(
        _ opening: inout Opening,
        link: Link,
        headers: HTTPFields?,
        scripts: CompiledScripts
    ) -> (CompiledScript, String)? {
        guard opening.needsScript, let script = opening.script else { return nil }
        opening.needsScript = false
        switch scripts[script] {
        case .success(let compiled):
            let input =
                script.matchesHeaders
                ? headers.map { link.text + "\n" + RuleSet.compactJSON($0) } ?? link.text : link.text
            return (compiled, input)
        case .failure(let error):
            opening.error = OpeningError(error)
        case nil:
            opening.error = OpeningError(
                code: "E_SCRIPT_UNKNOWN",
                message: "the script is not one of this resolver's rule set"
            )
        }
        return nil
    }

    /// A script's output as the opening's URL or error.
    private static func fill(_ opening: inout Opening, with output: Result<String?, ScriptError>) {
        switch output {
        case .success(let url?):
            // The same rule as for templates: nothing invisible in a URL handed out.
            opening.url = OutputSafety.visible(url)
        case .success(nil):
            opening.error = OpeningError(code: "E_NO_RESULT", message: "the script reported no result")
        case .failure(let error):
            opening.error = OpeningError(error)
        }
    }
}

extension OpeningError {
    /// A script's failure as an opening's error.
    init(_ error: ScriptError) {
        self.init(code: error.code.rawValue, message: error.message + (error.line.map { " (script line \($0))" } ?? ""))
    }
}
