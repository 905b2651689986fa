import WebLinks

/// Where a wrapper link carries the original link, and how it is encoded: the catalog's `decode` (with `parameters`).
public enum WrapperDecoding: Sendable, Hashable {
    /// The first of these query parameters that is present and not empty, form-decoded (`"decode": "query"`): `url`
    /// for Safe Links; `q`, else `url`, for Google.
    case query([String])
    /// Proofpoint URL Defense v2 (`"decode": "proofpoint-v2"`): the query parameter, form-decoded, with `-` standing
    /// for `%` and `_` for `/`: replaced, then percent-decoded once.
    case proofpointV2(parameter: String)
    /// Proofpoint URL Defense v3 (`"decode": "proofpoint-v3"`): `/v3/__LINK__;DATA!…` (`LINK` starts after the path's
    /// first `__`), the markers of `LINK` replaced by the bytes of `DATA` (see the module's documentation).
    case proofpointV3
    /// The last segment of the path, percent-decoded once (`"decode": "last-path-segment"`, Cisco Secure Email).
    case lastPathSegment
    /// The query parameter, form-decoded, as base64 of the link's UTF-8 (`"decode": "base64"`, Sophos): the standard
    /// alphabet, padding optional.
    case base64(parameter: String)
    /// Only the gateway's service knows the link (`"decode": "opaque"`, Mimecast's `/s/…`): online, it is followed as
    /// a short link.
    case opaque
    /// A bounce page: the link's own page redirects, with a `Refresh` header or `<meta http-equiv="refresh">`
    /// (`"decode": "page"`): online its page is read and followed (a GET of its start), offline it is opaque.
    case page

    /// The catalog's name of the decoding.
    public var kind: String {
        switch self {
        case .query: "query"
        case .proofpointV2: "proofpoint-v2"
        case .proofpointV3: "proofpoint-v3"
        case .lastPathSegment: "last-path-segment"
        case .base64: "base64"
        case .opaque: "opaque"
        case .page: "page"
        }
    }

    /// Every `decode` the catalog knows, and whether it takes `parameters`.
    static let kinds: [(name: String, takesParameters: Bool)] = [
        ("query", true), ("proofpoint-v2", true), ("proofpoint-v3", false), ("last-path-segment", false),
        ("base64", true), ("opaque", false), ("page", false),
    ]

    /// The query parameters it reads.
    public var parameters: [String] {
        switch self {
        case .query(let names): names
        case .proofpointV2(let name), .base64(let name): [name]
        case .proofpointV3, .lastPathSegment, .opaque, .page: []
        }
    }
}

/// What decoding one wrapper link gave.
public enum WrapperDecodingOutcome: Sendable, Equatable {
    /// The link it carries.
    case decoded(Link)
    /// The link has the wrapper's host and path but not what it decodes (no such parameter, or it is empty): not a
    /// wrapped link, and it is left alone.
    case absent
    /// Only the gateway's service knows the link it stands for.
    case opaque
    /// It holds something that cannot be decoded, or that is not a web link: why, in words that follow "the link is
    /// a NAME link, but".
    case malformed(String)
}

extension WrapperDecoding {
    /// Decodes `link`; a result that is not UTF-8, longer than `maximumLength` UTF-8 bytes, or one the link parser
    /// refuses, is malformed.
    func decode(_ link: Link, path: Substring, maximumLength: Int) -> WrapperDecodingOutcome {
        switch self {
        case .opaque, .page:
            return .opaque
        case .query(let names):
            var firstProblem: String?
            for name in names {
                guard let value = FormDecoding.queryValue(named: name, in: link.text), !value.isEmpty else { continue }
                switch Self.link(value, what: "the value of \"\(name)\"", maximumLength: maximumLength) {
                case .decoded(let inner): return .decoded(inner)
                case .malformed(let problem): firstProblem = firstProblem ?? problem
                default: continue
                }
            }
            return firstProblem.map(WrapperDecodingOutcome.malformed) ?? .absent
        case .proofpointV2(let name):
            guard let value = FormDecoding.queryValue(named: name, in: link.text), !value.isEmpty else {
                return .absent
            }
            let substituted = value.map {
                $0 == UInt8(ascii: "-") ? UInt8(ascii: "%") : $0 == UInt8(ascii: "_") ? UInt8(ascii: "/") : $0
            }
            let decoded = FormDecoding.decoded(substituted, plusAsSpace: false)
            return Self.link(decoded, what: "the value of \"\(name)\", decoded,", maximumLength: maximumLength)
        case .proofpointV3:
            // The link starts after the first `__` of the path (`/v3/__`).
            let pathBytes = Array(path.utf8)
            guard
                let underscores = pathBytes.indices.dropLast().first(where: {
                    pathBytes[$0] == UInt8(ascii: "_") && pathBytes[$0 + 1] == UInt8(ascii: "_")
                })
            else { return .absent }
            let start = link.text.utf8.index(path.startIndex, offsetBy: underscores + 2)
            switch ProofpointV3.decode(link.text[start...], maximumLength: maximumLength) {
            case .success(let text): return Self.link(text, what: "the link it holds", maximumLength: maximumLength)
            case .failure(let problem): return .malformed(problem.reason)
            }
        case .lastPathSegment:
            let segment = path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).last ?? []
            guard !segment.isEmpty else { return .absent }
            let decoded = FormDecoding.decoded(segment, plusAsSpace: false)
            return Self.link(decoded, what: "its last path segment, decoded,", maximumLength: maximumLength)
        case .base64(let name):
            guard let value = FormDecoding.queryValue(named: name, in: link.text), !value.isEmpty else {
                return .absent
            }
            // Base64 has no spaces: a space is a `+` that the query's form-decoding read as one.
            let text = String(decoding: value.map { $0 == UInt8(ascii: " ") ? UInt8(ascii: "+") : $0 }, as: UTF8.self)
            guard let bytes = FormDecoding.base64(text, urlSafe: false) else {
                return .malformed("the value of \"\(name)\", \"\(ProofpointV3.preview(text))\", is not base64")
            }
            guard FormDecoding.validText(bytes) != nil else {
                return .malformed("the value of \"\(name)\" decodes from base64 to bytes that are not UTF-8")
            }
            return Self.link(
                bytes,
                what: "the value of \"\(name)\", decoded from base64,",
                maximumLength: maximumLength
            )
        }
    }

    /// Decoded bytes as the next link: valid UTF-8 the link parser accepts, or why they are not one. (A wrapper that
    /// wrote a link's bytes in another encoding: U+FFFD in their place would make another link.)
    private static func link(_ bytes: [UInt8], what: String, maximumLength: Int) -> WrapperDecodingOutcome {
        guard let text = FormDecoding.validText(bytes) else {
            return .malformed("\(what) is not valid UTF-8 once percent-decoded")
        }
        return link(text, what: what, maximumLength: maximumLength)
    }

    /// `text` as the next link, or why it is not one.
    private static func link(_ text: String, what: String, maximumLength: Int) -> WrapperDecodingOutcome {
        do {
            return .decoded(try Link(text, maximumLength: maximumLength))
        } catch {
            return .malformed("\(what) \"\(ProofpointV3.preview(text))\" is not a web link: \(error.message)")
        }
    }
}
