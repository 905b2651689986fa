import DomainClaims
import WebLinks

/// What was read about the link's domains for a prediction: the assetlinks.json statement lists an Android app's
/// verification is derived from, and the apple-app-site-association file of an iPhone that was not given one.
public struct PredictionEvidence: Sendable {
    /// Each domain's statement lists (its own and its includes'), by domain (lower case).
    public var statementLists: [String: AssetStatementLists]
    /// The apple-app-site-association file read for the link's domain (nil: none was served), and where it was
    /// read or why it gave nothing; nil when none was read.
    public var association: (file: AppSiteAssociation?, source: String)?

    /// Evidence; nothing read by default.
    public init(
        statementLists: [String: AssetStatementLists] = [:],
        association: (file: AppSiteAssociation?, source: String)? = nil
    ) {
        self.statementLists = statementLists
        self.association = association
    }

    /// Whether deciding `link` on `device` needs a file the device does not give (an Android app's derived verification,
    /// an iPhone's missing apple-app-site-association file).
    public static func needsReading(for link: TappedLink, on device: Device) -> Bool {
        switch device {
        case .android(let android): !AndroidVerification.domainsToRead(for: link, on: android).isEmpty
        case .ios(let ios): ios.association.isUnknown && link.web?.scheme == "https"
        }
    }

    /// Reads through `source` what deciding `link` on `device` needs and the device does not give: the assetlinks.json
    /// of each domain an Android app's verification must be derived from, and an iPhone's missing
    /// apple-app-site-association file. Without a source, nothing is read (each missing file is said in the reasons).
    public static func read(
        for link: TappedLink,
        on device: Device,
        from source: (any DomainFileReading)?
    ) async -> PredictionEvidence {
        var evidence = PredictionEvidence()
        guard let source else { return evidence }
        switch device {
        case .android(let android):
            for domain in AndroidVerification.domainsToRead(for: link, on: android) {
                guard let site = AssetSite("https://" + domain) else { continue }
                evidence.statementLists[domain] = await source.statementLists(of: site)
            }
        case .ios(let ios):
            if ios.association.isUnknown, let web = link.web, web.scheme == "https" {
                evidence.association = await source.association(for: web)
            }
        }
        return evidence
    }
}

/// Where a prediction reads the domain files a device does not give: the network (DomainClaimsStage's
/// `ClaimsLookup`, through a resolution's fetching stack), or files given up front (``GivenDomainFiles``).
public protocol DomainFileReading: Sendable {
    /// `site`'s statement lists: its own `/.well-known/assetlinks.json` and, breadth-first, its includes'.
    func statementLists(of site: AssetSite) async -> AssetStatementLists
    /// The apple-app-site-association file of `link`'s domain (nil when none is served), and the URL it was read from
    /// or why it gives nothing, in a sentence.
    func association(for link: Link) async -> (file: AppSiteAssociation?, source: String)
}

/// Domain files given up front, by URL (the conformance protocol's `files`): statement lists are read from them, an
/// apple-app-site-association file only from the device.
public struct GivenDomainFiles: DomainFileReading {
    private let files: AssetLinksFiles

    /// The files, by URL (`https://a.example/.well-known/assetlinks.json`).
    public init(_ files: [String: String]) {
        self.files = AssetLinksFiles(files)
    }

    /// The files of a request's `files` member (at `pointer`): URL to body, a body given as a string or as JSON
    /// (written out compact); none when absent.
    public init(json node: JSONNode?, at pointer: JSONPointer = "/files") throws(PredictionError) {
        guard let node else {
            self.init([:])
            return
        }
        guard let members = node.members else {
            throw PredictionError(
                "expected an object of files by URL, found \(node.typeDescription)",
                at: pointer,
                position: node.position
            )
        }
        var files: [String: String] = [:]
        for member in members {
            files[member.key] = member.value.stringValue ?? JSONWriter(style: .compact).write(member.value)
        }
        self.init(files)
    }

    /// The site's lists among the files.
    public func statementLists(of site: AssetSite) async -> AssetStatementLists {
        await AssetLinksChecker(source: files).statementLists(of: site)
    }

    /// None: an iPhone's file is given in the device (`aasa`).
    public func association(for link: Link) async -> (file: AppSiteAssociation?, source: String) {
        (nil, "no apple-app-site-association file is given for \(link.hostName)")
    }
}
