import Foundation
import LinkFetching
import LinkMatching
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

    /// Loads, compiles and tests the manifest from `source`; a URL is fetched through `downloader` (its cache
    /// keeps the last good copy).
    public static func load(_ source: ManifestSource, downloader: CachedDownloader? = nil) async throws(Rejection) -> RuleSet {
        let rules: RuleSet
        do {
            switch source {
            case .bundled: rules = try RuleSet.bundled()
            case .file(let path): rules = try RuleSet.load(contentsOf: URL(fileURLWithPath: path))
            case .url(let url):
                guard let downloader else { throw Rejection(description: "\(url): the server runs offline, so it cannot download a manifest") }
                let download: CachedDownload
                do {
                    download = try await downloader.load(url: url) { data in _ = try ManifestLoader().load(Array(data), file: url) }
                } catch {
                    throw Rejection(description: "\(url): \(error.description)")
                }
                rules = RuleSet(try ManifestLoader().load(Array(download.data), file: url))
            }
        } catch let rejection as Rejection {
            throw rejection
        } catch let error as ManifestError {
            throw Rejection(description: error.description)
        } catch {
            throw Rejection(description: "\(error)")
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
