// A redirect's target (a `Location`, a refresh's URL) is read as the WHATWG URL Standard reads a reference against a
// web link, before Foundation resolves what is left: for special schemes a backslash is a slash, any number of slashes
// may start an authority, and `http:x` against an http link is relative. Browsers follow those readings; a follower
// that read `\\evil.example\x` as a path would list one link and the browser would open another.

extension LinkParser {
    /// A reference made ready for Foundation's resolution against `base` (an http or https link): an absolute link's
    /// text, or a reference Foundation resolves as the URL Standard does (`/x`, `x`, `../x`, `?q`, `#f`).
    enum Reference: Equatable {
        /// An absolute link's text (or a reference with another scheme, which the link parser refuses).
        case absolute(String)
        /// A reference relative to the base.
        case relative(String)
    }

    /// `reference` as the URL Standard reads it against `base`: backslashes before the query read as slashes (when
    /// the reference has no scheme, or http or https); `//host`, `///host` and `\\host` name a host on the base's
    /// scheme; `https:host` and `https:///host` name `host`; `http:x` against an http link is the relative `x`.
    static func reference(_ reference: String, base scheme: String) -> Reference {
        let scalars = Array(reference.unicodeScalars)
        var schemeEnd: Int?
        if let first = scalars.first, first.isASCII, first.properties.isAlphabetic {
            for (index, scalar) in scalars.enumerated().dropFirst() {
                if scalar == ":" {
                    schemeEnd = index
                    break
                }
                guard scalar.isASCII,
                    scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "+-.".unicodeScalars.contains(scalar)
                else { break }
            }
        }
        let referenceScheme = schemeEnd.map { String(String.UnicodeScalarView(scalars[..<$0])).lowercased() }
        if let referenceScheme, referenceScheme != "http", referenceScheme != "https" { return .absolute(reference) }
        // Backslashes are slashes before the query and fragment, in special schemes.
        var rest = Array(scalars[(schemeEnd.map { $0 + 1 } ?? 0)...])
        for index in rest.indices {
            if rest[index] == "?" || rest[index] == "#" { break }
            if rest[index] == "\\" { rest[index] = "/" }
        }
        let startsWithTwoSlashes = rest.count >= 2 && rest[0] == "/" && rest[1] == "/"
        if let referenceScheme {
            if referenceScheme == scheme, !startsWithTwoSlashes { return .relative(text(rest)) }
            return .absolute(referenceScheme + "://" + text(rest.drop { $0 == "/" }))
        }
        if startsWithTwoSlashes { return .absolute(scheme + "://" + text(rest.drop { $0 == "/" })) }
        return .relative(text(rest))
    }

    private static func text(_ scalars: some Sequence<Unicode.Scalar>) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }
}
