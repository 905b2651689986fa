import Foundation
import LinkMatching
import LinkResolver
import LinkRules
import Synchronization

/// The rule set a server answers with, swapped atomically on reload: a request sees one whole rule set, old or new,
/// never a mix, and a reload never waits for requests (nor they for it).
public final class RuleSetStore: Sendable {
    private let state: Mutex<State>

    private struct State {
        var rules: RuleSet
        var generation: Int
        var loadedAt: Date
        var lastRejection: String?
        var fileSignature: FileSignature?
    }

    /// Starts with a rule set that has already been accepted.
    public init(_ rules: RuleSet, fileSignature: FileSignature? = nil) {
        state = Mutex(State(rules: rules, generation: 1, loadedAt: Date(), lastRejection: nil, fileSignature: fileSignature))
    }

    /// The current rule set.
    public var rules: RuleSet { state.withLock { $0.rules } }

    /// How many rule sets have been accepted (1 for the initial one).
    public var generation: Int { state.withLock { $0.generation } }

    /// Why the last reload was refused, if it was.
    public var lastRejection: String? { state.withLock { $0.lastRejection } }

    /// The signature of the file the current rules came from.
    public var fileSignature: FileSignature? { state.withLock { $0.fileSignature } }

    /// Installs a new rule set.
    public func replace(with rules: RuleSet, fileSignature: FileSignature?) {
        state.withLock {
            $0.rules = rules
            $0.generation += 1
            $0.loadedAt = Date()
            $0.lastRejection = nil
            $0.fileSignature = fileSignature
        }
    }

    /// Records a refused reload; the current rules stay.
    public func recordRejection(_ reason: String, fileSignature: FileSignature?) {
        state.withLock {
            $0.lastRejection = reason
            if let fileSignature { $0.fileSignature = fileSignature }
        }
    }
}

/// What identifies a version of a file without reading it: size and modification time.
public struct FileSignature: Sendable, Equatable {
    public var size: Int
    public var modified: Date

    /// The signature of the file at `path`, if it exists.
    public static func of(_ path: String) -> FileSignature? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = attributes[.size] as? Int, let modified = attributes[.modificationDate] as? Date
        else { return nil }
        return FileSignature(size: size, modified: modified)
    }
}
