/// The host rules of Android's intent filters and domain verification, on one host's text.
///
/// Three different questions, each answered as Android answers it:
/// - ``isWellFormed(_:)``: whether a device file's text can be a host at all (what the reader refuses);
/// - ``filter(_:matches:)``: whether an intent filter's `<data android:host>` matches a link's host
///   (`IntentFilter.AuthorityEntry`: a leading `*` matches any run of characters before the rest, case ignored);
/// - ``isDomain(_:)`` and ``covers(_:_:)``: whether a host counts as a domain for approval, and whether a verified or
///   selected host approves a link's host (a verified `*.example.com` covers `example.com` and its subdomains, never
///   `badexample.com`).
public enum HostName {
    /// Whether `text` can be a host in a device file: not empty, no whitespace, control characters or delimiters of a
    /// URL (`/ ? # @ : \ [ ] %`), and a `*` only as its first character. Hosts that are not valid domain names
    /// (`localhost`, `.a.example`, `a..b`) are well formed: they are read, and never count for approval.
    public static func isWellFormed(_ text: String) -> Bool {
        guard !text.isEmpty else { return false }
        for (index, scalar) in text.unicodeScalars.enumerated() {
            switch scalar {
            case "*" where index == 0: continue
            case "*", "/", "?", "#", "@", ":", "\\", "[", "]", "%", " ": return false
            default:
                if scalar.value < 0x21 || scalar.value == 0x7F || scalar.properties.isWhitespace
                    || scalar.properties.generalCategory == .format
                {
                    return false
                }
            }
        }
        return true
    }

    /// Whether the filter host `pattern` matches `host`, as `IntentFilter.AuthorityEntry.match` decides: a pattern that
    /// begins with `*` matches every host that ends with the rest (`*.example.com` matches `a.example.com`, not
    /// `example.com`; `*` alone matches every host); any other pattern matches the same host; case is ignored.
    public static func filter(_ pattern: String, matches host: String) -> Bool {
        let pattern = Array(pattern.lowercased().utf16)
        let host = Array(host.lowercased().utf16)
        guard pattern.first == UInt16(UInt8(ascii: "*")) else { return pattern == host }
        let rest = pattern.dropFirst()
        return host.count >= rest.count && host.suffix(rest.count).elementsEqual(rest)
    }

    /// Whether `host` is a domain name Android's domain verification applies to (`Patterns.DOMAIN_NAME`): labels of
    /// letters, digits, `-` and `_` (neither of the last two at a label's ends), at least one dot, a top-level label of
    /// two or more letters or a punycode `xn--` label; or a dotted IPv4 address. `localhost`, `.a.example`,
    /// `a.example.`, `a..b` and `a.b1` are not.
    public static func isDomain(_ host: String) -> Bool {
        isIPv4Address(host) || isHostName(host)
    }

    /// Whether a declared, verified or selected host counts for approval: `*.` followed by a domain, or a domain
    /// (`(\*\.)?` and ``isDomain(_:)``, as Android's `DomainVerificationCollector` checks a filter's hosts).
    public static func isApprovable(_ host: String) -> Bool {
        isDomain(host.hasPrefix("*.") ? String(host.dropFirst(2)) : host)
    }

    /// Whether the approved host `approved` (verified or selected) approves `host`: the same host, or, for `*.root`,
    /// `root` itself or any host that ends with `.root`; case ignored. Hosts that do not count for approval
    /// (``isApprovable(_:)``) approve nothing.
    public static func covers(_ approved: String, _ host: String) -> Bool {
        guard isApprovable(approved) else { return false }
        let approved = approved.lowercased()
        let host = host.lowercased()
        guard approved.hasPrefix("*.") else { return approved == host }
        let root = approved.dropFirst(2)
        return host == root || host.hasSuffix("." + root)
    }

    /// The domain whose assetlinks.json verifies `host`: the host itself, or for `*.root` the root.
    public static func verificationDomain(of host: String) -> String {
        host.hasPrefix("*.") ? String(host.dropFirst(2)).lowercased() : host.lowercased()
    }

    // MARK: - Patterns.DOMAIN_NAME

    /// `IP_ADDRESS`: four dotted octets; the first 1-255, the others 0-255; three digits may start with 0 or 1.
    private static func isIPv4Address(_ host: String) -> Bool {
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4 else { return false }
        for (index, octet) in octets.enumerated() {
            let digits = Array(octet.utf8)
            guard (1...3).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }) else {
                return false
            }
            switch digits.count {
            case 3:
                guard let value = Int(octet), digits[0] <= UInt8(ascii: "2"), value <= 255 else { return false }
            case 2:
                guard digits[0] != UInt8(ascii: "0") else { return false }
            default:
                // One digit: any, but the first octet is 1-9.
                guard index != 0 || digits[0] != UInt8(ascii: "0") else { return false }
            }
        }
        return true
    }

    /// `(IRI_LABEL\.)+TLD`.
    private static func isHostName(_ host: String) -> Bool {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let top = labels.last else { return false }
        return labels.dropLast().allSatisfy(isLabel) && isTopLevel(top)
    }

    /// `IRI_LABEL`: 1 to 63 characters, letters, digits and UCS characters at both ends, `_` and `-` also inside.
    private static func isLabel(_ label: Substring) -> Bool {
        let scalars = Array(label.unicodeScalars)
        guard (1...63).contains(scalars.count), let first = scalars.first, let last = scalars.last,
            isLabelCharacter(first), isLabelCharacter(last)
        else { return false }
        return scalars.allSatisfy { isLabelCharacter($0) || $0 == "-" || $0 == "_" }
    }

    /// `TLD`: `xn--` then 0 to 58 word characters or `-` and a word character; or 2 to 63 letters or UCS characters.
    private static func isTopLevel(_ label: Substring) -> Bool {
        let scalars = Array(label.unicodeScalars)
        if label.hasPrefix("xn--"), (5...63).contains(scalars.count), let last = scalars.last, isWord(last),
            scalars.dropFirst(4).allSatisfy({ isWord($0) || $0 == "-" })
        {
            return true
        }
        return (2...63).contains(scalars.count) && scalars.allSatisfy { isASCIILetter($0) || isUCS($0) }
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        isASCIILetter(scalar) || ("0"..."9").contains(scalar) || scalar == "_"
    }

    private static func isLabelCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isASCIILetter(scalar) || ("0"..."9").contains(scalar) || isUCS(scalar)
    }

    /// `UCS_CHAR`: U+00A0–U+D7FF, U+F900–U+FDCF, U+FDF0–U+FFEF, and U+n0000–U+nFFFD for the planes 1 to 14.
    private static func isUCS(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        switch value {
        case 0xA0...0xD7FF, 0xF900...0xFDCF, 0xFDF0...0xFFEF: return true
        case 0x10000...0xEFFFF: return value & 0xFFFF <= 0xFFFD
        default: return false
        }
    }
}
