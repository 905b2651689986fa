import BundledRules
import Foundation
import LinkFetching
import LinkMatching
import LinkResolution
import LinkRules

/// Where rules come from: the one description of a manifest source for every front end.
public enum ManifestSource: Sendable, Equatable, CustomStringConvertible {
    /// Switchyard's bundled rules.
    case bundled
    /// A manifest file.
    case file(String)
    /// A manifest URL, downloaded through the network policy and cached (conditional requests, the last good copy
    /// kept).
    case url(String)

    /// The source an argument names: nil gives the bundled rules, an `http(s)://` text a URL, anything else a path.
    public init(argument: String?) {
        guard let argument else {
            self = .bundled
            return
        }
        let lowered = argument.lowercased()
        self = lowered.hasPrefix("https://") || lowered.hasPrefix("http://") ? .url(argument) : .file(argument)
    }

    /// The name used in messages: the path, the URL, or `bundled rules`.
    public var description: String {
        switch self {
        case .bundled: "bundled rules"
        case .file(let path): path
        case .url(let url): url
        }
    }
}

/// What a front end accepts as rules, said explicitly: a tool may use the rest of a manifest whose entries have
/// errors when asked to, while a server refuses any manifest with such entries or with failing tests, so that a bad
/// edit never replaces good rules.
public struct AcceptancePolicy: Sendable, Equatable {
    /// Whether entries with errors (a regex ICU rejects, a broken template or script) are skipped rather than
    /// refusing the manifest.
    public var skipsEntriesWithErrors: Bool
    /// Whether the manifest's own deterministic tests (templates, browsers, redirects; no scripts, no network) run
    /// at load and must all pass.
    public var requiresPassingTests: Bool

    /// Creates a policy.
    public init(skipsEntriesWithErrors: Bool, requiresPassingTests: Bool) {
        self.skipsEntriesWithErrors = skipsEntriesWithErrors
        self.requiresPassingTests = requiresPassingTests
    }

    /// What a server accepts: no entry with errors, every deterministic test passing.
    public static let serving = AcceptancePolicy(skipsEntriesWithErrors: false, requiresPassingTests: true)

    /// What a command-line tool accepts: entries with errors only when `lenient`; tests are the `test` command's.
    public static func tool(lenient: Bool) -> AcceptancePolicy {
        AcceptancePolicy(skipsEntriesWithErrors: lenient, requiresPassingTests: false)
    }
}

/// A rule set a ``RuleSetLoader`` accepted.
public struct LoadedRules: Sendable {
    /// The compiled rules.
    public let rules: RuleSet
    /// The deterministic tests' report, when the policy ran them (scripts skipped).
    public let testReport: RuleTestReport?
    /// Entries left out because of their errors (under a policy that skips them), for the caller to show.
    public let skippedEntries: [Diagnostic]
    /// Why a cached copy of a manifest URL was used instead of a fresh download, if it was.
    public let downloadWarning: String?
    /// The bytes the manifest was read from (`LoadedManifest.source`).
    public let source: [UInt8]
}

/// Why a manifest was refused: what failed, where, and the diagnostics behind it.
public struct RuleSetLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The manifest source, as named in messages.
    public var source: String
    /// One sentence saying what failed.
    public var message: String
    /// The located diagnostics (entry errors), each printable as `file:line:column: error: …`.
    public var diagnostics: [Diagnostic]
    /// `source: error: message`, or the loader's own located line (`file:line:column: error: … [CODE at /pointer]`).
    public let description: String

    /// Creates an error.
    public init(source: String, message: String, diagnostics: [Diagnostic] = []) {
        self.source = source
        self.message = message
        self.diagnostics = diagnostics
        description = "\(source): error: \(message)"
    }

    /// A manifest that does not load (JSON syntax, types, limits), with its own located description.
    init(_ error: ManifestError, source: String) {
        self.source = error.file ?? source
        message = error.message
        diagnostics = []
        description = error.description
    }
}

extension Diagnostic {
    /// The diagnostic as said when the whole manifest is refused: without the clause that ends a compiler's message
    /// with the entry's fate (`; this entry is ignored …`), which is what a rule set compiled leniently does with the
    /// entry, not what happens to a refused manifest.
    var refused: Diagnostic {
        var copy = self
        for fate in ["; this rule is ignored", "; this entry is ignored", "; this format is ignored"] {
            if let range = copy.message.range(of: fate) { copy.message.removeSubrange(range.lowerBound...) }
        }
        return copy
    }
}

/// Loads rules from a ``ManifestSource`` under an ``AcceptancePolicy``: the one loader the CLI and the server share.
public struct RuleSetLoader: Sendable {
    /// What is accepted.
    public var policy: AcceptancePolicy
    /// Downloads manifest URLs, with its cache (nil: URLs are refused, for offline runs).
    public var downloader: CachedDownloader?
    /// Size limits for loading.
    public var limits: ManifestLimits

    /// Creates a loader.
    public init(
        policy: AcceptancePolicy,
        downloader: CachedDownloader? = nil,
        limits: ManifestLimits = ManifestLimits()
    ) {
        self.policy = policy
        self.downloader = downloader
        self.limits = limits
    }

    /// Loads, compiles (scripts parsed by JavaScriptCore) and vets the manifest from `source`.
    public func load(_ source: ManifestSource) async throws(RuleSetLoadError) -> LoadedRules {
        let name = source.description
        let loaded: LoadedManifest
        var downloadWarning: String?
        do {
            switch source {
            case .bundled:
                loaded = try RuleSet.bundledManifest()
            case .file(let path):
                loaded = try ManifestLoader(limits: limits).load(contentsOf: URL(fileURLWithPath: path))
            case .url(let url):
                guard let downloader else {
                    throw RuleSetLoadError(
                        source: name,
                        message: "downloading a manifest needs the network, which this run does not allow"
                    )
                }
                let limits = limits
                let download: CachedDownload
                do {
                    download = try await downloader.load(url: url) { data in
                        _ = try ManifestLoader(limits: limits).load(Array(data), file: url)
                    }
                } catch {
                    throw RuleSetLoadError(source: name, message: error.message)
                }
                downloadWarning = download.warning
                loaded = try ManifestLoader(limits: limits).load(Array(download.data), file: url)
            }
        } catch let error as RuleSetLoadError {
            throw error
        } catch let error as ManifestError {
            throw RuleSetLoadError(error, source: name)
        } catch {
            throw RuleSetLoadError(source: name, message: "the manifest cannot be loaded")
        }
        let rules = RuleSet(loaded, scriptChecker: JavaScriptChecker())
        let errors = rules.errors
        if !errors.isEmpty, !policy.skipsEntriesWithErrors {
            throw RuleSetLoadError(
                source: rules.file ?? name,
                message:
                    "the manifest is refused, so none of its rules are used: \(errors.count) \(errors.count == 1 ? "entry has an error" : "entries have errors")",
                diagnostics: errors.map(\.refused)
            )
        }
        var report: RuleTestReport?
        if policy.requiresPassingTests {
            let run = await RuleTestRunner(rules: rules).run()
            let failures = run.results.filter { $0.status == .failed }
            if let failure = failures.first {
                throw RuleSetLoadError(
                    source: rules.file ?? name,
                    message:
                        "\(failures.count) of the manifest's own tests fail, first: \(failure.location): \(failure.reason ?? "")"
                )
            }
            report = run
        }
        return LoadedRules(
            rules: rules,
            testReport: report,
            skippedEntries: errors,
            downloadWarning: downloadWarning,
            source: loaded.source
        )
    }
}
