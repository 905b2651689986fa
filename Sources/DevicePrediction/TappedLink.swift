import Foundation
import WebLinks

/// The link a tap opens: a web link (`Link` (WebLinks), canonical) or a custom-scheme URL (`twitter://status?id=20`),
/// read only as far as an intent filter or a registered scheme looks at it.
public struct TappedLink: Sendable, Equatable, CustomStringConvertible {
    /// The text (canonical for a web link).
    public let text: String
    /// The scheme, lower-cased.
    public let scheme: String
    /// The host, lower-cased (nil for a custom URL without one).
    public let host: String?
    /// The path, percent-decoded, as Android's `Uri.getPath()` gives it.
    public let decodedPath: String
    /// The web link, when it is one.
    public let web: Link?

    /// Reads `text`: an http(s) link through `Link` (WebLinks), anything else as `scheme:[//host]path`; throws the
    /// web link's refusal, or a sentence for a text with no scheme.
    public init(_ text: String) throws(PredictionError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let colon = trimmed.firstIndex(of: ":")
        let scheme = colon.map { trimmed[..<$0].lowercased() } ?? ""
        if scheme == "http" || scheme == "https" || colon == nil {
            let link: Link
            do {
                link = try Link(trimmed)
            } catch {
                throw PredictionError("\(error.message) [\(error.code.rawValue)]")
            }
            self.init(web: link)
            return
        }
        // RFC 3986: a letter, then letters, digits, `+`, `-` and `.`; no control character anywhere.
        let allowed = { (scalar: Unicode.Scalar) in
            ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) || "+-.".unicodeScalars.contains(scalar)
        }
        guard let first = scheme.unicodeScalars.first, ("a"..."z").contains(first),
            scheme.unicodeScalars.allSatisfy(allowed),
            !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else {
            throw PredictionError("the link \"\(trimmed.prefix(80))\" has no scheme a URL can have")
        }
        let components = URLComponents(string: trimmed)
        self.init(
            text: trimmed,
            scheme: scheme,
            host: components?.host?.lowercased(),
            decodedPath: components?.path ?? "",
            web: nil
        )
    }

    /// A web link.
    public init(web link: Link) {
        let parts = link.text.dropFirst(link.scheme.count + 3)
        let path = parts.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" }.map { parts[$0...] } ?? ""
        let rawPath = path.prefix { $0 != "?" && $0 != "#" }
        self.init(
            text: link.text,
            scheme: link.scheme,
            host: link.hostName,
            decodedPath: rawPath.removingPercentEncoding ?? String(rawPath),
            web: link
        )
    }

    private init(text: String, scheme: String, host: String?, decodedPath: String, web: Link?) {
        self.text = text
        self.scheme = scheme
        self.host = host
        self.decodedPath = decodedPath
        self.web = web
    }

    /// Whether it is an http or https link.
    public var isWeb: Bool { web != nil }

    /// The text.
    public var description: String { text }
}
