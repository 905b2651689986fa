import WebLinks

/// A request's connection sent elsewhere, as curl's `--connect-to HOST:PORT:ADDRESS:PORT` does: a request to
/// `HOST:PORT` keeps its URL (TLS names and checks the certificate of `HOST`, the `Host` field says `HOST`) but
/// connects to `ADDRESS:PORT`. For private deployments and for tests, which answer `https://example.com/…` from a
/// loopback server. The address goes through the policy's checks like any other (a loopback one needs
/// ``NetworkPolicy/allowPrivateAddresses`` or ``NetworkPolicy/allowedAddresses``).
public struct ConnectionOverride: Sendable, Hashable, CustomStringConvertible {
    /// The host the request names (lower case, IPv6 without brackets).
    public var host: String
    /// The port the request names (443 for `https://HOST/`).
    public var port: Int
    /// Where to connect instead: an IP address or a host name (resolved and checked as usual).
    public var address: String
    /// The port to connect to.
    public var addressPort: Int

    /// An override from its parts.
    public init(host: String, port: Int, address: String, addressPort: Int) {
        self.host = Self.bare(host).lowercased()
        self.port = port
        self.address = Self.bare(address)
        self.addressPort = addressPort
    }

    /// Reads curl's `HOST:PORT:ADDRESS:PORT` (IPv6 hosts and addresses in brackets); nil when it is not that, or a
    /// port is not 1 to 65535.
    public init?(parsing text: String) {
        var fields: [String] = []
        var rest = Substring(text)
        while true {
            if rest.hasPrefix("[") {
                guard let close = rest.firstIndex(of: "]") else { return nil }
                fields.append(String(rest[rest.index(after: rest.startIndex)..<close]))
                rest = rest[rest.index(after: close)...]
            } else {
                let end = rest.firstIndex(of: ":") ?? rest.endIndex
                fields.append(String(rest[..<end]))
                rest = rest[end...]
            }
            guard !rest.isEmpty else { break }
            guard rest.first == ":", fields.count < 4 else { return nil }
            rest = rest.dropFirst()
        }
        guard fields.count == 4, !fields[0].isEmpty, !fields[2].isEmpty,
            let port = Int(fields[1]), let addressPort = Int(fields[3]),
            (1...65535).contains(port), (1...65535).contains(addressPort)
        else { return nil }
        self.init(host: fields[0], port: port, address: fields[2], addressPort: addressPort)
    }

    /// `HOST:PORT:ADDRESS:PORT`, IPv6 in brackets.
    public var description: String {
        "\(Self.bracketed(host)):\(port):\(Self.bracketed(address)):\(addressPort)"
    }

    /// Whether a request to `link` connects elsewhere by this override.
    public func applies(to link: Link) -> Bool {
        link.hostName.lowercased() == host && link.effectivePort == port
    }

    private static func bare(_ text: String) -> String {
        text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
    }

    private static func bracketed(_ text: String) -> String { text.contains(":") ? "[\(text)]" : text }
}
