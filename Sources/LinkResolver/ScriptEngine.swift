import Foundation
import LinkFetching
import LinkRules
import LinkScripts
import Synchronization

/// Renders rules' scripts: compiles each source once (per engine), runs it in JavaScriptCore with the network the
/// caller allows, and applies the one output-safety policy to what it returns. Implements ``ScriptEvaluating`` for
/// the test runner (offline, online, recording or replaying).
public final class ScriptEngine: ScriptEvaluating, Sendable {
    /// The JavaScriptCore host.
    public let runner: ScriptRunner
    /// Where `httpRequest` goes; nil: offline (scripts that need the network are reported as such).
    public let fetcher: (any LinkFetching)?
    private let compiled = Mutex<[String: Result<CompiledScript, ScriptError>]>([:])

    /// Creates an engine; `timeLimit` bounds each script run (Opener uses 15 s).
    public init(fetcher: (any LinkFetching)?, timeLimit: Duration = .seconds(15)) {
        runner = ScriptRunner(configuration: ScriptConfiguration(timeLimit: timeLimit) { OutputSafety.problem(with: $0) })
        self.fetcher = fetcher
    }

    /// The compiled script for a source (compiled on first use, then shared).
    func script(_ source: String, legacy: Bool, rule: String) -> Result<CompiledScript, ScriptError> {
        let key = (legacy ? "L" : "S") + source
        if let known = compiled.withLock({ $0[key] }) { return known }
        let result: Result<CompiledScript, ScriptError>
        do {
            result = .success(try runner.compile(source, kind: legacy ? .legacyScript : .script2, name: rule))
        } catch {
            result = .failure(error)
        }
        compiled.withLock { $0[key] = result }
        return result
    }

    /// Runs a script on `input`, within `timeLimit` when given.
    public func run(_ source: String, legacy: Bool, input: String, rule: String, timeLimit: Duration? = nil) async -> Result<String?, ScriptError> {
        switch script(source, legacy: legacy, rule: rule) {
        case .failure(let error):
            return .failure(error)
        case .success(let script):
            let network = fetcher.map { FetcherScriptNetwork(fetcher: $0) }
            return await runner.run(script, input: input, network: network, timeLimit: timeLimit).output
        }
    }

    public func evaluate(_ source: String, legacy: Bool, input: String, rule: String) async -> ScriptEvaluation {
        switch await run(source, legacy: legacy, input: input, rule: rule) {
        case .success(let url):
            return .completed(url)
        case .failure(let error) where error.code == .needsNetwork:
            return .unavailable(reason: "needs network")
        case .failure(let error):
            return .failed(reason: error.description)
        }
    }
}

/// Scripts' `httpRequest` over ``LinkFetching``: the same policy, recorder and replayer as everything else.
struct FetcherScriptNetwork: ScriptNetwork {
    let fetcher: any LinkFetching

    func get(_ url: String, timeout: Duration) throws(ScriptNetworkError) -> String {
        do {
            let response = try fetcher.fetchBlocking(FetchRequest(url: url, timeout: timeout))
            return response.text
        } catch {
            switch error.code {
            case .offline: throw ScriptNetworkError(kind: .offline, message: error.description)
            case .blockedAddress, .forbiddenScheme, .forbiddenPort: throw ScriptNetworkError(kind: .blocked, message: error.description)
            default: throw ScriptNetworkError(kind: .failed, message: error.description)
            }
        }
    }
}
