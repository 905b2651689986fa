import Foundation
import LinkMatching
import LinkResolver
import LinkRules
import Synchronization

/// The rules a server answers with, swapped atomically on reload: a request sees one whole generation, old or new,
/// never a mix, and a reload never waits for requests (nor they for it).
public final class RuleSetStore: Sendable {
    /// One accepted rule set, with everything made from it once: its resolver (scripts compiled) and the report of
    /// the tests it passed at load.
    public struct Generation: Sendable {
        /// 1 for the initial rules, one more per accepted reload.
        public let number: Int
        /// The resolver over these rules.
        public let resolver: Resolver
        /// The manifest's own tests, as run when the rules were accepted.
        public let testReport: RuleTestReport?
        /// When the rules were accepted.
        public let loadedAt: Date

        /// The rules.
        public var rules: RuleSet { resolver.rules }
    }

    private struct State {
        var current: Generation
        var lastRejection: String?
        var fileSignature: FileSignature?
    }

    private let state: Mutex<State>

    /// Starts with a rule set that has already been accepted.
    public init(_ resolver: Resolver, testReport: RuleTestReport?, fileSignature: FileSignature? = nil) {
        let first = Generation(number: 1, resolver: resolver, testReport: testReport, loadedAt: Date())
        state = Mutex(State(current: first, lastRejection: nil, fileSignature: fileSignature))
    }

    /// The current generation.
    public var current: Generation { state.withLock { $0.current } }

    /// The current rule set.
    public var rules: RuleSet { current.rules }

    /// How many rule sets have been accepted (1 for the initial one).
    public var generation: Int { current.number }

    /// Why the last reload was refused, if it was.
    public var lastRejection: String? { state.withLock { $0.lastRejection } }

    /// The signature of the file the current rules came from.
    public var fileSignature: FileSignature? { state.withLock { $0.fileSignature } }

    /// Installs a new rule set as the next generation.
    public func replace(with resolver: Resolver, testReport: RuleTestReport?, fileSignature: FileSignature?) {
        state.withLock {
            $0.current = Generation(
                number: $0.current.number + 1,
                resolver: resolver,
                testReport: testReport,
                loadedAt: Date()
            )
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
    /// The size in bytes.
    public var size: Int
    /// The modification time.
    public var modified: Date

    /// The signature of the file at `path`, if it exists.
    public static func of(_ path: String) -> FileSignature? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = attributes[.size] as? Int, let modified = attributes[.modificationDate] as? Date
        else { return nil }
        return FileSignature(size: size, modified: modified)
    }
}
