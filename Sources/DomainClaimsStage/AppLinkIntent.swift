import WebLinks

/// The Android intent URL that opens a link in one app, as `Intent.toUri(Intent.URI_INTENT_SCHEME)` writes it for a
/// `VIEW` intent with the link as data and the package set: `intent:` and the link without its scheme, then
/// `#Intent;scheme=https;package=PKG;end`, the values escaped as `Uri.encode` does.
public enum AppLinkIntent {
    /// `intent://HOST/PATH?QUERY#Intent;scheme=https;package=PKG;end` for `link` (its fragment, when it has one, stays
    /// before `#Intent;`, where Android's parser leaves it).
    public static func url(for link: Link, package: String) -> String {
        let text = link.requestText
        let data = text.hasPrefix(link.scheme + ":") ? text.dropFirst(link.scheme.count + 1) : Substring(text)
        return "intent:\(data)#Intent;scheme=\(encode(link.scheme));package=\(encode(package));end"
    }

    /// `android.net.Uri.encode`: every byte but ASCII letters, digits and `_-!.~'()*` percent-encoded (UTF-8).
    public static func encode(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let scalar = Unicode.Scalar(byte)
            if scalar.isASCII,
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "_-!.~'()*".unicodeScalars.contains(scalar)
            {
                result.unicodeScalars.append(scalar)
            } else {
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded
            }
        }
        return result
    }
}

extension String {
    /// Two hex digits.
    fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}
