import WebLinks

/// A refresh's URL, parsed against the page's link as the HTML Standard says ("encoding-parsing a URL"): the URL
/// Standard's first steps (leading and trailing C0 controls and spaces stripped, tabs and newlines removed), then the
/// one link parser (`Link(resolving:against:)`, which reads backslashes and slashes as the URL Standard does).
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
        reference.unicodeScalars.append(contentsOf: scalars)
        // The empty reference is the page itself (without its fragment).
        if reference.isEmpty {
            let text = page.text
            return (try? Link(String(text[..<(text.firstIndex(of: "#") ?? text.endIndex)]))).map(Outcome.link)
                ?? .failed
        }
        if let colon = reference.firstIndex(of: ":"), reference[..<colon].lowercased() == "javascript" {
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
}
