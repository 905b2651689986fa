import Foundation
import WebLinks

/// The link wrappers Switchyard decodes offline, in order: Microsoft's Safe Links, Proofpoint's URL Defense, the
/// other mail gateways, and the "you are leaving" pages of Google, Facebook, Slack and others.
///
/// The built-in catalog (``builtIn``) is data beside the code, `link-wrappers.json`, in the format a user layer's
/// `wrappers` use: `{"switchyardLinkWrappers": 1, "wrappers": [{"id", "name", "hosts", "paths", "decode",
/// "parameters"}, …]}`. ``wrapper(for:)`` finds the first entry whose host and path a link has; ``unwrap(_:maximumDepth:maximumLength:)``
/// decodes a link and every wrapper inside it.
public struct LinkWrapperCatalog: Sendable {
    /// The catalog's format version (`"switchyardLinkWrappers": 1`).
    public static let currentVersion = 1
    /// What names the built-in catalog in messages.
    public static let builtInFile = "bundled:link-wrappers.json"

    /// The entries, in the order they are tried.
    public let wrappers: [LinkWrapper]
    /// The entries (their indexes) each exact host has.
    private let byHost: [String: [Int]]
    /// The entries with a host pattern that is not one host, and those patterns.
    private let byPattern: [(entry: Int, patterns: [WrapperHostPattern])]

    /// A catalog of these entries, tried in order.
    public init(wrappers: [LinkWrapper]) {
        self.wrappers = wrappers
        var byHost: [String: [Int]] = [:]
        var byPattern: [(entry: Int, patterns: [WrapperHostPattern])] = []
        for (index, wrapper) in wrappers.enumerated() {
            var patterns: [WrapperHostPattern] = []
            for host in wrapper.hosts {
                if let exact = host.exactHost {
                    if byHost[exact]?.last != index { byHost[exact, default: []].append(index) }
                } else {
                    patterns.append(host)
                }
            }
            if !patterns.isEmpty { byPattern.append((index, patterns)) }
        }
        self.byHost = byHost
        self.byPattern = byPattern
    }

    /// The built-in catalog (empty, should its resource be missing or broken: `loadBuiltIn()` says why, and the
    /// package's tests load it).
    public static let builtIn: LinkWrapperCatalog = (try? loadBuiltIn()) ?? LinkWrapperCatalog(wrappers: [])

    /// Loads the built-in catalog; throws when its resource is missing or has a problem.
    public static func loadBuiltIn() throws(LinkWrapperError) -> LinkWrapperCatalog {
        guard let url = Bundle.module.url(forResource: "link-wrappers", withExtension: "json"),
            let data = try? Data(contentsOf: url)
        else {
            throw LinkWrapperError("\(builtInFile): error: the resource is missing from the build")
        }
        let read = try WrapperCatalogReader(file: builtInFile).read(Array(data))
        if let problem = read.issues.first {
            throw LinkWrapperError(problem.description)
        }
        return read.catalog
    }

    /// Whether `link` is a bounce page's (a wrapper whose decoding is ``WrapperDecoding/page``): online, the follower
    /// reads its page for a refresh.
    public func isBouncePage(_ link: Link) -> Bool {
        wrapper(for: link)?.decoding == .page
    }

    /// The first entry whose host and path `link` has, or nil when it is no wrapper's.
    public func wrapper(for link: Link) -> LinkWrapper? {
        var best: Int?
        for index in byHost[link.host] ?? [] where wrappers[index].matchesPath(of: link) {
            best = index
            break
        }
        if !byPattern.isEmpty {
            let labels = link.host.split(separator: ".", omittingEmptySubsequences: false)
            for (index, patterns) in byPattern where index < (best ?? Int.max) {
                if patterns.contains(where: { $0.matches(labels: labels) }), wrappers[index].matchesPath(of: link) {
                    best = index
                    break
                }
            }
        }
        return best.map { wrappers[$0] }
    }

    /// This catalog with `added` entries tried first (an added entry with the identifier of one of these replaces it)
    /// and without the entries whose identifiers are in `disabled`: what a user layer makes of the built-in catalog.
    public func applying(added: [LinkWrapper], disabled: Set<String>) -> LinkWrapperCatalog {
        let replaced = Set(added.map(\.id))
        return LinkWrapperCatalog(
            wrappers: added.filter { !disabled.contains($0.id) }
                + wrappers.filter { !replaced.contains($0.id) && !disabled.contains($0.id) }
        )
    }

    /// The entry with this identifier.
    public func wrapper(id: String) -> LinkWrapper? {
        wrappers.first { $0.id == id }
    }
}
