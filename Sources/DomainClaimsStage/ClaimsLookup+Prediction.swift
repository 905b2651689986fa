import DevicePrediction
import DomainClaims
import LinkResolution
import WebLinks

/// The network behind a device prediction (`switchyard predict`, `POST /v1/predict`): a derived Android verification's
/// assetlinks.json and an iPhone's missing apple-app-site-association file, fetched as the claims are (the same
/// `DomainFileFetcher`: https, no redirects, 128 KiB, through the HTTP cache, before the deadline).
extension ClaimsLookup: DomainFileReading {
    /// `site`'s statement list and its includes, from the network.
    public func statementLists(of site: AssetSite) async -> AssetStatementLists {
        await AssetLinksChecker(source: NetworkAssetLinks(files: files)).statementLists(of: site)
    }

    /// `link`'s domain's apple-app-site-association file (`.well-known` first, then the root), or why there is none.
    public func association(for link: Link) async -> (file: AppSiteAssociation?, source: String) {
        let file = await files.firstFile(of: Self.associationURLs(for: link))
        guard let body = file.body else {
            let why = file.attempts.map { "\($0.url) gives nothing: \($0.problem ?? "")" }
            return (nil, why.isEmpty ? "no apple-app-site-association file was read" : why.joined(separator: "; "))
        }
        guard let association = try? AppSiteAssociation(bytes: body) else {
            return (nil, "\(file.url) is not JSON: it claims nothing")
        }
        return (association, file.url)
    }
}
