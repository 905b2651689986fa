import WebLinks

/// What a Digital Asset Links statement points at: an Android app (its package and one signing certificate) or a site.
public enum AssetTarget: Sendable, Hashable {
    /// `{"namespace": "android_app", "package_name": …, "sha256_cert_fingerprints": […]}`, one fingerprint per target.
    case androidApp(packageName: String, fingerprint: CertificateFingerprint)
    /// `{"namespace": "web", "site": "https://example.com"}`.
    case web(AssetSite)
}

/// A SHA-256 certificate fingerprint as Digital Asset Links writes it: 32 upper-case hex octets joined by colons.
public struct CertificateFingerprint: Sendable, Hashable, CustomStringConvertible {
    /// The fingerprint's text (`14:6D:E9:…`).
    public let text: String

    /// Reads `text`; nil unless it is exactly 32 upper-case hex octets joined by colons (lower case is refused, as
    /// Google's API refuses it).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 32 * 3 - 1 else { return nil }
        for (index, byte) in bytes.enumerated() {
            if index % 3 == 2 {
                guard byte == UInt8(ascii: ":") else { return nil }
            } else {
                guard
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                        || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
                else { return nil }
            }
        }
        self.text = text
    }

    /// The fingerprint's text.
    public var description: String { text }
}

/// A site as Digital Asset Links names one: its scheme, host and port, nothing else.
public struct AssetSite: Sendable, Hashable, CustomStringConvertible {
    /// `scheme://host[:port]`, lower-cased, without the scheme's default port.
    public let origin: String
    /// `https` or `http`.
    public let scheme: String

    /// Reads `text` (`https://example.com`, a trailing `/` allowed); nil when it is not an http(s) origin: no path,
    /// query, fragment or user name.
    public init?(_ text: String) {
        guard let link = try? Link(text) else { return nil }
        let parts = URLParts(link)
        guard parts.path == "/", parts.query == nil, parts.fragment == nil,
            !text.hasSuffix("?"), !text.hasSuffix("#")
        else { return nil }
        scheme = link.scheme
        origin = link.scheme + "://" + link.host + (link.port.map { ":\($0)" } ?? "")
    }

    /// Where the site publishes its statement list: `origin/.well-known/assetlinks.json`.
    public var statementListURL: String { origin + "/.well-known/assetlinks.json" }

    /// The origin.
    public var description: String { origin }
}

/// A relation string: `kind/detail`, each of lower-case letters, digits, `_` and `.`
/// (`delegate_permission/common.handle_all_urls`).
public enum AssetRelation {
    /// The relation Android App Links check.
    public static let handleAllURLs = "delegate_permission/common.handle_all_urls"

    /// Whether `text` is a well-formed relation.
    public static func isValid(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 2
            && parts.allSatisfy { part in
                !part.isEmpty
                    && part.utf8.allSatisfy { byte in
                        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
                    }
            }
    }
}
