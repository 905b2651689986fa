import Crypto
import Foundation
import LinkFetching
import LinkMatching
import LinkResolver
import LinkRules
import Synchronization

/// The rules a server answers with, swapped atomically on reload: a request sees one whole generation, old or new,
/// never a mix, and a reload never waits for requests (nor they for it).
package final class RuleSetStore: Sendable {
    /// One accepted rule set, with everything made from it once: its resolver (scripts compiled) and the run of its
    /// own tests.
    package struct Generation: Sendable {
        /// 1 for the initial rules, one more per accepted reload.
        package let number: Int
        /// The resolver over these rules.
        package let resolver: Resolver
        /// The manifest's own tests with their scripts (and the user layer's, under `userLayer`), run by the
        /// resolver's engine once, when first asked for.
        package let tests: RuleTestRun
        /// When the rules were accepted.
        package let loadedAt: Date
        /// What identifies these rules in any process (the resolver's `rulesIdentity`): the manifest's
        /// ``RuleSetStore/identity(of:)``, combined with the user layer's bytes when one is applied
        /// (``RuleSetStore/identity(manifest:userLayer:)``). The HTTP API's entity tags are made from it, so that
        /// replicas serving the same manifest and layer agree on them, and a reload that changes either changes them.
        package let identity: String
        /// The manifest's own identity (``RuleSetStore/identity(of:)``), kept when only the user layer changes.
        let manifestIdentity: String

        init(number: Int, resolver: Resolver, manifestIdentity: String, testTimeLimit: Duration) {
            self.number = number
            self.resolver = resolver
            self.manifestIdentity = manifestIdentity
            identity = resolver.rulesIdentity
            tests = RuleTestRun(RuleTestRunner(resolver: resolver, timeLimit: testTimeLimit))
            loadedAt = Date()
        }

        /// The rules.
        package var rules: RuleSet { resolver.rules }
    }

    private struct State {
        var current: Generation
        var lastRejection: String?
        var fileSignature: FileSignature?
        var userLayerSignature: FileSignature?
    }

    private let state: Mutex<State>
    /// The time each test case of ``Generation/tests`` may take, its script included.
    let testTimeLimit: Duration

    /// Starts with a rule set that has already been accepted, its manifest identified by `identity`
    /// (``identity(of:)``): the resolver is `resolver` over the same rules with the generation's identity, and every
    /// later generation is made from it (its engine, network and stages) with other rules. Each of its tests with a
    /// script may run for `testTimeLimit` (a resolution's time limit).
    package init(
        _ resolver: Resolver,
        identity: String,
        fileSignature: FileSignature? = nil,
        userLayerSignature: FileSignature? = nil,
        testTimeLimit: Duration = .seconds(15)
    ) {
        self.testTimeLimit = testTimeLimit
        let first = Generation(
            number: 1,
            resolver: resolver.replacingRules(
                resolver.rules,
                identity: Self.identity(manifest: identity, userLayer: resolver.rules.userLayer?.loaded)
            ),
            manifestIdentity: identity,
            testTimeLimit: testTimeLimit
        )
        state = Mutex(
            State(
                current: first,
                lastRejection: nil,
                fileSignature: fileSignature,
                userLayerSignature: userLayerSignature
            )
        )
    }

    /// The current generation.
    package var current: Generation { state.withLock { $0.current } }

    /// The current rule set.
    package var rules: RuleSet { current.rules }

    /// How many rule sets have been accepted (1 for the initial one).
    package var generation: Int { current.number }

    /// Why the last reload was refused, if it was.
    package var lastRejection: String? { state.withLock { $0.lastRejection } }

    /// The signature of the file the current rules came from.
    package var fileSignature: FileSignature? { state.withLock { $0.fileSignature } }

    /// The signature of the user layer file the current rules have over them.
    package var userLayerSignature: FileSignature? { state.withLock { $0.userLayerSignature } }

    /// Installs a new rule set, its manifest identified by `identity` (``identity(of:)``), as the next generation.
    package func replace(with rules: RuleSet, identity: String, fileSignature: FileSignature?) {
        state.withLock {
            $0.current = Generation(
                number: $0.current.number + 1,
                resolver: $0.current.resolver.replacingRules(
                    rules,
                    identity: Self.identity(manifest: identity, userLayer: rules.userLayer?.loaded)
                ),
                manifestIdentity: identity,
                testTimeLimit: testTimeLimit
            )
            $0.lastRejection = nil
            $0.fileSignature = fileSignature
        }
    }

    /// Records the manifest file's signature alone: the file changed on disk but holds the same bytes as the serving
    /// manifest (touched, rewritten as it was, or read mid-write before), so no new generation is made.
    package func recordFileSignature(_ fileSignature: FileSignature?) {
        state.withLock { $0.fileSignature = fileSignature }
    }

    /// Installs rules with a new user layer over the same manifest as the next generation (the manifest's identity
    /// and file signature stay).
    package func replace(with rules: RuleSet, userLayerSignature: FileSignature?) {
        state.withLock {
            $0.current = Generation(
                number: $0.current.number + 1,
                resolver: $0.current.resolver.replacingRules(
                    rules,
                    identity: Self.identity(manifest: $0.current.manifestIdentity, userLayer: rules.userLayer?.loaded)
                ),
                manifestIdentity: $0.current.manifestIdentity,
                testTimeLimit: testTimeLimit
            )
            $0.lastRejection = nil
            $0.userLayerSignature = userLayerSignature
        }
    }

    /// The SHA-256 (hex) of the manifest's name and bytes: the same for the same file in any process, different for
    /// any other content (every document made from the rules is made from these two, and nothing else of the file).
    package static func identity(of loaded: LoadedRules) -> String {
        var hash = SHA256()
        hash.update(data: Array((loaded.rules.file ?? "").utf8) + [0])
        hash.update(data: loaded.source)
        return StableHash.hexadecimal(hash.finalize())
    }

    /// The manifest's identity alone, or with a user layer's name and bytes hashed in.
    static func identity(manifest: String, userLayer: LoadedUserLayer?) -> String {
        guard let userLayer else { return manifest }
        var hash = SHA256()
        hash.update(data: Array(manifest.utf8) + [0] + Array((userLayer.file ?? "").utf8) + [0])
        hash.update(data: userLayer.source)
        return StableHash.hexadecimal(hash.finalize())
    }

    /// Records a refused user layer; the current rules (and their layer) stay.
    package func recordUserLayerRejection(_ reason: String, signature: FileSignature?) {
        state.withLock {
            $0.lastRejection = reason
            // A layer file that is gone has no signature: kept as such, so it is not refused again on every check.
            $0.userLayerSignature = signature
        }
    }

    /// Records a refused reload; the current rules stay.
    package func recordRejection(_ reason: String, fileSignature: FileSignature?) {
        state.withLock {
            $0.lastRejection = reason
            if let fileSignature { $0.fileSignature = fileSignature }
        }
    }
}

/// One run of a rule set's own tests, started by the first caller and shared by every caller after it.
package final class RuleTestRun: Sendable {
    private let runner: RuleTestRunner
    private let task = Mutex<Task<RuleTestReport, Never>?>(nil)

    /// A run of `runner`'s cases, not started yet.
    package init(_ runner: RuleTestRunner) {
        self.runner = runner
    }

    /// The report: the run starts on the first call; later calls wait for the same run.
    package func report() async -> RuleTestReport {
        let runner = runner
        let run = task.withLock { task in
            if let task { return task }
            let started = Task { await runner.runWithUserLayer() }
            task = started
            return started
        }
        return await run.value
    }
}

/// What identifies a version of a file without reading it: size and modification time.
package struct FileSignature: Sendable, Equatable {
    /// The size in bytes.
    package var size: Int
    /// The modification time.
    package var modified: Date

    /// The signature of the file at `path`, if it exists.
    package static func of(_ path: String) -> FileSignature? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = attributes[.size] as? Int, let modified = attributes[.modificationDate] as? Date
        else { return nil }
        return FileSignature(size: size, modified: modified)
    }
}
