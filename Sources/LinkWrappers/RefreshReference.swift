import WebLinks

/// A refresh's URL, parsed against the page's link as the HTML Standard says ("encoding-parsing a URL"): the URL
/// Standard's first steps (leading and trailing C0 controls and spaces stripped, tabs and newlines removed), the
/// control characters left percent-encoded as the URL Standard encodes them in a path, query or fragment (a browser
/// goes to `/a%00b`; in a host the escape is refused, as the standard refuses the character), then the one link parser
/// (`Link(resolving:against:)`, which reads backslashes and slashes as the URL Standard does).
enum RefreshReference {
    /// What the reference gave.
    enum Outcome: Equatable {
        /// The URL Standard cannot parse it, or it is `javascript:`: the steps return early (no refresh).
        case failed
        /// The link.
        case link(Link)
        /// A URL the URL Standard parses and a browser would go to, which the link parser refuses.
        case refused(String, LinkError)
    }

    static func resolve(_ raw: String, against page: Link) -> Outcome {
        var scalars = Array(raw.unicodeScalars)
        while let first = scalars.first, first.value <= 0x20 { scalars.removeFirst() }
        while let last = scalars.last, last.value <= 0x20 { scalars.removeLast() }
        scalars.removeAll { $0 == "\t" || $0 == "\n" || $0 == "\r" }
        var reference = ""
        for scalar in scalars {
            if isControl(scalar) {
                for byte in String(scalar).utf8 {
                    reference += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
                }
            } else {
                reference.unicodeScalars.append(scalar)
            }
        }
        // The empty reference is the page itself (without its fragment).
        if reference.isEmpty {
            let text = page.text
            return (try? Link(String(text[..<(text.firstIndex(of: "#") ?? text.endIndex)]))).map(Outcome.link)
                ?? .failed
        }
        if let colon = reference.firstIndex(of: ":"), Refresh.asciiLowercased(reference[..<colon]) == "javascript" {
            return .failed
        }
        do {
            return .link(try Link(resolving: reference, against: page))
        } catch {
            switch error.code {
            // What the URL Standard refuses too: no scheme it can read, no valid host, no valid port.
            case .empty, .notAbsolute, .badHost, .badPort: return .failed
            default: return .refused(reference, error)
            }
        }
    }

    /// What the link parser refuses raw and the URL Standard percent-encodes: C0 and C1 controls, DEL, and the line and
    /// paragraph separators.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
