import WebLinks

/// One kind of wrapper link: a mail or chat gateway's, or a site's "you are leaving" page, which carries the original
/// link encoded. An entry of the catalog (``LinkWrapperCatalog``) or of a user layer's `wrappers`.
public struct LinkWrapper: Sendable, Hashable, CustomStringConvertible {
    /// The entry's identifier (`proofpoint-v3`): what a user layer's `disableWrappers` names, and what an entry of the
    /// user's own replaces.
    public var id: String
    /// What resolutions call it (`Proofpoint URL Defense v3`): the rule of its unwrap steps.
    public var name: String
    /// The hosts its links are on (any of them).
    public var hosts: [WrapperHostPattern]
    /// Their paths (any of them).
    public var paths: [WrapperPathPattern]
    /// Where the original link is.
    public var decoding: WrapperDecoding
    /// Where the entry is defined in its file (`/wrappers/4`).
    public var pointer: JSONPointer

    /// Creates an entry.
    public init(
        id: String,
        name: String,
        hosts: [WrapperHostPattern],
        paths: [WrapperPathPattern],
        decoding: WrapperDecoding,
        pointer: JSONPointer = .root
    ) {
        self.id = id
        self.name = name
        self.hosts = hosts
        self.paths = paths
        self.decoding = decoding
        self.pointer = pointer
    }

    /// The name.
    public var description: String { name }

    /// Whether `link` is on one of the hosts, at one of the paths.
    public func matches(_ link: Link) -> Bool {
        hosts.contains { $0.matches(host: link.host) } && matchesPath(of: link)
    }

    /// Whether the path of `link` is one of the paths.
    func matchesPath(of link: Link) -> Bool {
        let path = Self.path(of: link)
        let bytes = path.isEmpty ? Substring("/").utf8 : path.utf8
        return paths.contains { $0.matches(path: bytes) }
    }

    /// Decodes the link this wrapper carries in `link` (which it matches); a result longer than `maximumLength` or
    /// that the link parser refuses is malformed.
    public func decode(_ link: Link, maximumLength: Int = Link.maximumLength) -> WrapperDecodingOutcome {
        decoding.decode(link, path: Self.path(of: link), maximumLength: maximumLength)
    }

    /// The path of a link's canonical text: after `scheme://host[:port]`, before `?` and `#`.
    static func path(of link: Link) -> Substring {
        let text = link.text
        let authority =
            link.scheme.utf8.count + 3 + link.host.utf8.count + (link.port.map { String($0).utf8.count + 1 } ?? 0)
        let rest = text.utf8.dropFirst(authority)
        let end = rest.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex
        return Substring(text.utf8[rest.startIndex..<end])
    }
}
