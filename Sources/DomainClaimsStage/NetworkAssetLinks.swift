import DomainClaims
import LinkResolution
import Synchronization
import WebLinks

/// Statement lists from the network for `AssetLinksChecker`: each URL through a `DomainFileFetcher` (https only,
/// no redirects, 200 only, 128 KiB, before the deadline), every fetch remembered so that the answer's freshness and
/// the files' ages are known.
final class NetworkAssetLinks: AssetLinksSource {
    private let files: DomainFileFetcher
    private let made = Mutex<[DomainFile.Attempt]>([])

    init(files: DomainFileFetcher) {
        self.files = files
    }

    /// Every fetch made so far, in order.
    var attempts: [DomainFile.Attempt] { made.withLock { $0 } }

    func file(at url: String) async -> AssetLinksFile {
        guard let link = try? Link(url) else { return .unavailable("'\(url)' is not an https URL") }
        let attempt = await files.file(at: link)
        made.withLock { $0.append(attempt) }
        if let body = attempt.body { return .body(body) }
        return .unavailable(attempt.problem ?? "it gives nothing")
    }
}
