import Foundation

// Labels that begin with `xn--`, IDNA's ACE prefix, in any case (the host is lower-cased first, as UTS #46 maps it).
// The WHATWG URL Standard's domain to ASCII refuses one that is not valid punycode. Foundation's `URL` converts only a
// host with non-ASCII characters (and checks its `xn--` labels then); an ASCII host is passed through unchecked, so
// the parser checks those labels itself: RFC 3492 decodes each, and Foundation's UTS #46 conversion of what it decodes
// to must give the label back.

extension LinkHost {
    /// Refuses the first label of the lower-cased `host` that begins with `xn--` and is not valid punycode: it has
    /// non-ASCII characters, does not decode (RFC 3492), decodes to nothing or to plain ASCII, or decodes to text that
    /// UTS #46 refuses or writes otherwise. With `wholeHost`, the host with those labels decoded must also convert back
    /// to `host` as a whole (the bidirectional rule spans labels): `host` is then the ASCII host.
    static func checkPunycodeLabels(in host: String, wholeHost: Bool) throws(LinkError) {
        guard host.contains(acePrefix) else { return }
        var labels: [String] = []
        var decodedLabels: [String] = []
        var decodedAny = false
        for scalars in host.unicodeScalars.split(whereSeparator: isLabelSeparator) {
            let label = String(String.UnicodeScalarView(scalars))
            labels.append(label)
            if label.hasPrefix(acePrefix) {
                decodedLabels.append(try decoded(label))
                decodedAny = true
            } else {
                decodedLabels.append(label)
            }
        }
        guard wholeHost, decodedAny else { return }
        let decodedHost = decodedLabels.joined(separator: ".")
        guard idnaASCII(decodedHost) != labels.joined(separator: ".") else { return }
        throw LinkError(
            code: .badHost,
            message:
                "the host \"\(host)\" is not a valid international domain name: it decodes to \"\(visible(decodedHost))\", which UTS #46 refuses as a whole"
        )
    }

    /// IDNA's ACE prefix.
    static let acePrefix = "xn--"

    /// The four dots UTS #46 maps to a full stop.
    static func isLabelSeparator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case ".", "\u{3002}", "\u{FF0E}", "\u{FF61}": true
        default: false
        }
    }

    /// The Unicode text of a lower-cased `xn--` label, or the refusal that names it.
    static func decoded(_ label: String) throws(LinkError) -> String {
        let encoded = label.dropFirst(acePrefix.count)
        if let nonASCII = encoded.unicodeScalars.first(where: { !$0.isASCII }) {
            throw punycodeRefusal(
                label,
                "it has the non-ASCII character \"\(visible(String(nonASCII)))\" after \"xn--\""
            )
        }
        let decoded: String
        do {
            decoded = String(try Punycode.decode(encoded))
        } catch {
            throw punycodeRefusal(label, error.reason)
        }
        guard !decoded.isEmpty else { throw punycodeRefusal(label, "it decodes to nothing") }
        guard decoded.unicodeScalars.contains(where: { !$0.isASCII }) else {
            throw punycodeRefusal(
                label,
                "it decodes to the plain ASCII \"\(decoded)\", which is never written in punycode"
            )
        }
        guard let ascii = idnaASCII(decoded) else {
            throw idnaRefusal(label, "it decodes to \"\(visible(decoded))\", which UTS #46 does not allow in a host")
        }
        guard ascii == label else {
            throw idnaRefusal(label, "it decodes to \"\(visible(decoded))\", which UTS #46 writes \"\(ascii)\"")
        }
        return decoded
    }

    /// Foundation's UTS #46 conversion of a host with non-ASCII characters (the one ``canonical(_:)`` uses),
    /// lower-cased; nil when it refuses the host.
    static func idnaASCII(_ host: String) -> String? {
        guard let ascii = URL(string: "http://\(host)/")?.host, !ascii.isEmpty, ascii.utf8.allSatisfy({ $0 < 0x80 })
        else { return nil }
        return ascii.lowercased()
    }

    static func punycodeRefusal(_ label: String, _ reason: String) -> LinkError {
        LinkError(code: .badHost, message: "the host label \"\(visible(label))\" is not valid punycode: \(reason)")
    }

    static func idnaRefusal(_ label: String, _ reason: String) -> LinkError {
        LinkError(
            code: .badHost,
            message: "the host label \"\(visible(label))\" is not a valid international domain name: \(reason)"
        )
    }

    /// The text with every character a message could not show (controls, format characters, separators other than the
    /// space, unassigned and private-use code points) written as `⟦U+XXXX⟧`.
    static func visible(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .surrogate, .privateUse, .unassigned, .lineSeparator, .paragraphSeparator,
                .spaceSeparator where scalar != " ":
                let hex = String(scalar.value, radix: 16, uppercase: true)
                output += "⟦U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "⟧"
            default:
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
