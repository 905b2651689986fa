import LinkScripts
import Synchronization
import WebLinks

/// The outputs of script runs that did not touch the network, by script and input, so that a link seen again does
/// not run the same scripts again (a server's repeated links: each script run costs a worker's thread hop and
/// tens of microseconds of JavaScript, the matcher a few microseconds for the whole link).
///
/// Scripts are taken to be functions of their input, as Opener's are: a run that made a network request is never
/// kept, nor one whose outcome depends on the moment (stopped at its deadline, out of memory, set aside, not run).
/// The key is the script's process-wide identifier, one per source text, so a reload that keeps a script keeps its
/// results, and one that changes it starts afresh. Bounded in bytes by the project's one bounded map (`LRUStore`: an
/// entry counts its input's and output's UTF-8 and 96 bytes for the rest; the least recently used go first), so the
/// results in use survive and the memory stays bounded (inputs longer than ``maximumInputLength`` are not kept).
final class ScriptResultCache: Sendable {
    struct Key: Hashable, Sendable {
        let script: Int
        let input: String
    }

    /// Inputs longer than this (in UTF-8 bytes) are not kept.
    static let maximumInputLength = 4096

    private let outputs: Mutex<LRUStore<Key, Result<String?, ScriptError>>>
    private let reuses = Atomic<Int>(0)

    /// How many runs were answered with a kept output.
    var reuseCount: Int { reuses.load(ordering: .relaxed) }

    /// A cache of about `capacity` bytes at most.
    init(capacity: Int) {
        outputs = Mutex(LRUStore(capacity: max(1, capacity)))
    }

    /// The kept output of `script` on `input`, with the rule name of this `script` in an error (one source may serve
    /// several rules).
    func output(of script: CompiledScript, input: String) -> Result<String?, ScriptError>? {
        let key = Key(script: script.id, input: input)
        guard let found = outputs.withLock({ $0.value(for: key) }) else { return nil }
        reuses.add(1, ordering: .relaxed)
        return found.mapError { error in
            var error = error
            error.rule = script.name
            return error
        }
    }

    /// Keeps `result` of `script` on `input` when it can be reused (see the type's discussion).
    func keep(_ result: ScriptResult, of script: CompiledScript, input: String) {
        guard Self.isReproducible(result), input.utf8.count <= Self.maximumInputLength else { return }
        let key = Key(script: script.id, input: input)
        let cost = Self.size(of: result.output, for: key)
        outputs.withLock { _ = $0.insert(result.output, for: key, cost: cost) }
    }

    /// Whether a run's output is what the same script gives for the same input every time: it made no network request,
    /// and its output does not depend on the moment (``isReusable(_:)``). What a resolution's
    /// `ResolutionOutcome.isReproducible` counts on too.
    static func isReproducible(_ result: ScriptResult) -> Bool {
        !result.usedNetwork && isReusable(result.output)
    }

    /// Whether an output depends only on the script and its input.
    static func isReusable(_ output: Result<String?, ScriptError>) -> Bool {
        guard case .failure(let error) = output else { return true }
        switch error.code {
        case .exception, .noCompletion, .badResultType, .badResultURL, .resultTooLarge, .needsNetwork, .syntax,
            .noProcess:
            return true
        case .timeout, .memory, .quarantined, .exhausted, .networkBlocked, .tooManySubrequests, .backedOff, .hostDown:
            return false
        }
    }

    /// What an entry counts against the capacity.
    private static func size(of output: Result<String?, ScriptError>, for key: Key) -> Int {
        let text =
            switch output {
            case .success(let url): url?.utf8.count ?? 0
            case .failure(let error): error.message.utf8.count + error.rule.utf8.count
            }
        return key.input.utf8.count + text + 96
    }
}
