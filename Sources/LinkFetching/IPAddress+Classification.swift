extension IPAddress {
    /// Why the address must not be contacted by default (loopback, private, link-local, …), or nil when it is public.
    ///
    /// IPv6 forms that carry an IPv4 address are judged by that address, so `::ffff:127.0.0.1` and
    /// `64:ff9b::a9fe:a9fe` (169.254.169.254 through NAT64) are blocked like the IPv4 address itself.
    public var nonPublicReason: String? {
        switch self {
        case .v4(let a, let b, let c, _):
            return Self.ipv4Reason(a, b, c, self)
        case .v6(let bytes):
            if let embedded = embeddedIPv4 {
                return embedded.nonPublicReason.map { "\($0) (embedded in \(self))" }
            }
            return Self.ipv6Reason(bytes)
        }
    }

    /// Whether the address is publicly routable, so contacting it is allowed by default.
    public var isPublic: Bool { nonPublicReason == nil }

    private static func ipv4Reason(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ address: IPAddress) -> String? {
        switch (a, b, c) {
        case (0, _, _): return "'this network' 0.0.0.0/8"
        case (10, _, _): return "private 10.0.0.0/8"
        case (100, 64...127, _): return "carrier-grade NAT 100.64.0.0/10"
        case (127, _, _): return "loopback 127.0.0.0/8"
        case (169, 254, _): return "link-local 169.254.0.0/16 (cloud metadata lives at 169.254.169.254)"
        case (172, 16...31, _): return "private 172.16.0.0/12"
        case (192, 0, 0): return "IETF protocol assignments 192.0.0.0/24"
        case (192, 0, 2): return "documentation 192.0.2.0/24"
        case (192, 88, 99): return "6to4 relay anycast 192.88.99.0/24"
        case (192, 168, _): return "private 192.168.0.0/16"
        case (198, 18...19, _): return "benchmarking 198.18.0.0/15"
        case (198, 51, 100): return "documentation 198.51.100.0/24"
        case (203, 0, 113): return "documentation 203.0.113.0/24"
        case (224...239, _, _): return "multicast 224.0.0.0/4"
        case (240...255, _, _): return "reserved 240.0.0.0/4 (and broadcast)"
        default: return nil
        }
    }

    private static func ipv6Reason(_ b: [UInt8]) -> String? {
        guard b.count == 16 else { return "malformed IPv6 address" }
        if b[0..<15].allSatisfy({ $0 == 0 }) {
            return b[15] == 1 ? "loopback ::1" : "unspecified ::"
        }
        if b[0] & 0xfe == 0xfc { return "unique local fc00::/7" }
        if b[0] == 0xfe, b[1] & 0xc0 == 0x80 { return "link-local fe80::/10" }
        if b[0] == 0xfe, b[1] & 0xc0 == 0xc0 { return "site-local fec0::/10" }
        if b[0] == 0xff { return "multicast ff00::/8" }
        if b[0..<6] == [0x00, 0x64, 0xff, 0x9b, 0x00, 0x01] { return "local-use NAT64 64:ff9b:1::/48" }
        if b[0..<8] == [0x01, 0x00, 0, 0, 0, 0, 0, 0] { return "discard-only 100::/64" }
        if b[0..<4] == [0x20, 0x01, 0x0d, 0xb8] { return "documentation 2001:db8::/32" }
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0, b[3] == 0 { return "Teredo 2001::/32" }
        if b[0] & 0xe0 != 0x20 { return "outside global unicast 2000::/3" }
        return nil
    }
}
