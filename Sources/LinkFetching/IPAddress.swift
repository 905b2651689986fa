#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address as resolved for a host, judged by ``NetworkPolicy`` before any connection.
public enum IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// An IPv4 address, most significant byte first.
    case v4(UInt8, UInt8, UInt8, UInt8)
    /// An IPv6 address as its 16 bytes in network order.
    case v6([UInt8])

    /// Parses the canonical textual forms only (dotted quad, RFC 4291 IPv6 without brackets or zone).
    ///
    /// `inet_pton` is used on purpose: unlike `inet_aton`/`getaddrinfo` it rejects `2130706433` or `0x7f.0.0.1`,
    /// so a literal here is exactly what it looks like; the lenient spellings are handled by resolving them.
    public init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            self.init(networkOrderV4: v4.s_addr)
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            self = .v6(withUnsafeBytes(of: &v6) { Array($0) })
            return
        }
        return nil
    }

    init(networkOrderV4 raw: UInt32) {
        let host = UInt32(bigEndian: raw)
        self = .v4(
            UInt8(host >> 24),
            UInt8(truncatingIfNeeded: host >> 16),
            UInt8(truncatingIfNeeded: host >> 8),
            UInt8(truncatingIfNeeded: host)
        )
    }

    /// The canonical text (`127.0.0.1`, `::1`), without brackets.
    public var description: String {
        switch self {
        case .v4(let a, let b, let c, let d):
            return "\(a).\(b).\(c).\(d)"
        case .v6(let bytes):
            var address = in6_addr()
            withUnsafeMutableBytes(of: &address) { raw in
                for (index, byte) in bytes.prefix(16).enumerated() { raw[index] = byte }
            }
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return "::" }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// The IPv4 address an IPv6 address carries: IPv4-mapped `::ffff:a.b.c.d`, NAT64 `64:ff9b::/96`,
    /// IPv4-compatible `::a.b.c.d` and 6to4 `2002:AABB:CCDD::/48`; nil for IPv4 and other IPv6 addresses.
    public var embeddedIPv4: IPAddress? {
        guard case .v6(let b) = self, b.count == 16 else { return nil }
        let zeroPrefix = b[0..<10].allSatisfy { $0 == 0 }
        if zeroPrefix, b[10] == 0xff, b[11] == 0xff { return .v4(b[12], b[13], b[14], b[15]) }
        if b[0..<12] == [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0] { return .v4(b[12], b[13], b[14], b[15]) }
        if zeroPrefix, b[10] == 0, b[11] == 0, b[12..<16].contains(where: { $0 != 0 }),
            !(b[12] == 0 && b[13] == 0 && b[14] == 0 && b[15] == 1)
        {
            return .v4(b[12], b[13], b[14], b[15])
        }
        if b[0] == 0x20, b[1] == 0x02 { return .v4(b[2], b[3], b[4], b[5]) }
        return nil
    }
}
