import Foundation
import LinkResolver
import LinkRules

/// Loads and vets a rule set for serving: a manifest that fails to load, has entries with errors, or fails its
/// own deterministic tests (templates, browsers, redirects: the cases that need neither scripts nor network) is
/// refused, so a bad edit never replaces good rules.
public enum RuleSetLoader {
    /// Why a rule set was refused.
    public struct Rejection: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Loads, compiles and tests the manifest from `source`.
    public static func load(_ source: ManifestSource) async throws(Rejection) -> RuleSet {
        let rules: RuleSet
        do {
            switch source {
            case .bundled: rules = try RuleSet.bundled()
            case .file(let path): rules = try RuleSet.load(contentsOf: URL(fileURLWithPath: path))
            }
        } catch {
            throw Rejection(description: error.description)
        }
        if let error = rules.errors.first {
            throw Rejection(description: "\(rules.errors.count) error(s) in the manifest, first: \(error.description)")
        }
        let report = await RuleTestRunner(rules: rules).run()
        let failures = report.results.filter { $0.status == .failed && $0.kind != .script }
        if let failure = failures.first {
            throw Rejection(description: "\(failures.count) of the manifest's own tests fail, first: \(failure.location): \(failure.reason ?? "")")
        }
        return rules
    }
}
