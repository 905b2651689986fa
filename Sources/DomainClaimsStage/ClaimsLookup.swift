import DomainClaims
import LinkFetching
import LinkMatching
import LinkResolution
import WebLinks

/// What a link's domain claims, read from the network: the domain's apple-app-site-association file
/// (`.well-known` first, then the root) and its assetlinks.json statement list with its includes, each fetched as
/// the platforms fetch them (`DomainFileFetcher`), then decided by DomainClaims (`SiteClaims`).
///
/// The one lookup behind the resolver stage (``DomainClaimsStage``), `switchyard claims URL` without files, and
/// `GET /v1/claims`.
public struct ClaimsLookup: Sendable {
    /// The network and the deadline.
    package let files: DomainFileFetcher

    /// A lookup through `fetcher` until `deadline`.
    public init(fetcher: any LinkFetching, deadline: ContinuousClock.Instant) {
        files = DomainFileFetcher(fetcher: fetcher, deadline: deadline)
    }

    /// The claims on `link`: both files fetched concurrently. A link that is not https claims nothing (the answer
    /// says so, and nothing is fetched).
    public func claims(for link: Link) async -> FetchedClaims {
        let domain = link.hostName
        guard link.scheme == "https" else {
            var claims = SiteClaims(link: link, association: nil, statements: nil)
            claims.notes.append("the link is not https: only https links open as universal links or App Links")
            return FetchedClaims(claims: claims, files: [], cacheability: .unlimited)
        }
        let origin = "https://" + link.host + (link.port.map { ":\($0)" } ?? "")
        async let aasaFile = files.firstFile(of: Self.associationURLs(for: link))
        let source = NetworkAssetLinks(files: files)
        async let lists = statementLists(origin: origin, source: source)
        let aasa = await aasaFile
        let (statementLists, statementFiles) = await lists
        var association: AppSiteAssociation?
        var aasaTrace = ClaimsFileTrace(kind: FetchedClaims.aasaKind, attempts: aasa.attempts)
        if let body = aasa.body {
            do {
                association = try AppSiteAssociation(bytes: body)
            } catch {
                aasaTrace.problem = "it is not JSON (\(error.message)): it claims nothing"
            }
        }
        var claims: SiteClaims
        if let statementLists {
            claims = SiteClaims(link: link, association: association, statementLists: statementLists)
        } else {
            claims = SiteClaims(link: link, association: association, statements: nil)
        }
        claims.domain = domain
        var listTrace = ClaimsFileTrace(
            kind: FetchedClaims.assetLinksKind,
            attempts: statementFiles.first.map { [$0] } ?? []
        )
        if let statementLists, !statementLists.isUsable, listTrace.problem == nil {
            listTrace.problem = statementLists.notes.first ?? "it cannot be used"
        }
        for include in statementFiles.dropFirst() where include.problem != nil {
            listTrace.notes.append("the include \(include.url) gives nothing: \(include.problem ?? "")")
        }
        let cacheability = ([aasa.cacheability] + statementFiles.map(\.cacheability)).reduce(Cacheability.unlimited) {
            $0.combined(with: $1)
        }
        let stale = (aasa.attempts + statementFiles).filter(\.isStale).map(\.url)
        return FetchedClaims(
            claims: claims,
            files: [aasaTrace, listTrace],
            cacheability: cacheability,
            ages: Dictionary((aasa.attempts + statementFiles).map { ($0.url, $0.age) }) { first, _ in first },
            staleURLs: stale
        )
    }

    /// Where `link`'s domain publishes its apple-app-site-association file: `.well-known` first, then the root.
    static func associationURLs(for link: Link) -> [Link] {
        let origin = "https://" + link.host + (link.port.map { ":\($0)" } ?? "")
        return ["/.well-known/apple-app-site-association", "/apple-app-site-association"].compactMap {
            try? Link(origin + $0)
        }
    }

    /// The site's statement lists through `source`, and every fetch it made (the site's own list first).
    private func statementLists(
        origin: String,
        source: NetworkAssetLinks
    ) async -> (AssetStatementLists?, [DomainFile.Attempt]) {
        guard let site = AssetSite(origin) else { return (nil, []) }
        let lists = await AssetLinksChecker(source: source).statementLists(of: site)
        return (lists, source.attempts)
    }
}

/// A link's claims as read from the network: the decisions (``claims``), what each file was (``files``: its URL, age,
/// why it gave nothing), and how long the answer stands (``cacheability``).
public struct FetchedClaims: Sendable {
    /// The `kind` of an apple-app-site-association file's trace.
    public static let aasaKind = "apple-app-site-association"
    /// The `kind` of an assetlinks.json file's trace.
    public static let assetLinksKind = "assetlinks"

    /// What the files claim for the link.
    public var claims: SiteClaims
    /// Each file, the apple-app-site-association first.
    public var files: [ClaimsFileTrace]
    /// How long the answer may be kept: the shortest freshness of the files' answers.
    public var cacheability: Cacheability
    /// The age of each file read, by URL, in whole seconds.
    public var ages: [String: Int] = [:]
    /// The files given as a stale copy because their server failed.
    public var staleURLs: [String] = []
}

extension ClaimsFileTrace {
    /// A file's trace from the places tried: the last one's URL, age, problem and notes, the earlier ones' problems
    /// as notes.
    init(kind: String, attempts: [DomainFile.Attempt]) {
        let last = attempts.last
        self.init(
            kind: kind,
            url: last?.url ?? "",
            age: last?.body == nil ? nil : last?.age,
            problem: last == nil ? "it was not asked for" : last?.problem,
            notes: attempts.dropLast().map { "\($0.url) gives nothing: \($0.problem ?? "")" } + (last?.notes ?? [])
        )
    }
}
