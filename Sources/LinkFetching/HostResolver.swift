import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a host name into the addresses a connection would use; injectable so tests can make a public-looking
/// name resolve privately (or differently on each call) without touching real DNS.
public struct HostResolver: Sendable {
    /// Resolves `host` (as written in the URL, without brackets) to its addresses; an empty answer is an error.
    public var resolve: @Sendable (_ host: String) async throws(FetchError) -> [IPAddress]

    /// Creates a resolver from a function.
    public init(resolve: @escaping @Sendable (_ host: String) async throws(FetchError) -> [IPAddress]) {
        self.resolve = resolve
    }

    /// The system resolver (`getaddrinfo`), run off the cooperative thread pool because it blocks.
    ///
    /// glibc accepts lenient IPv4 spellings here (`2130706433`, `0x7f.0.0.1`, `0177.0.0.1`, `127.1`), which is
    /// why the policy judges these resolved addresses and never the host string. A name under the special-use
    /// domain `invalid` (RFC 6761 §6.4: resolver APIs should answer "no such name" for it at once) is refused
    /// without asking the system. Keep answers for a while with a ``HostResolverCache`` (`LiveFetcher` does).
    public static let system = HostResolver { host throws(FetchError) in
        if isSpecialUseInvalid(host) {
            throw FetchError(
                .unresolvableHost,
                url: host,
                message: "The host '\(host)' could not be resolved: names under 'invalid' never resolve (RFC 6761)."
            )
        }
        let result: Result<[IPAddress], FetchError> = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: getAddresses(host))
            }
        }
        return try result.get()
    }

    /// A resolver answering from a fixed table (for tests); unknown names fail like an unknown DNS name.
    public static func table(_ entries: [String: [IPAddress]]) -> HostResolver {
        HostResolver { host throws(FetchError) in
            guard let addresses = entries[host.lowercased()], !addresses.isEmpty else {
                throw FetchError(.unresolvableHost, url: host, message: "The host '\(host)' could not be resolved.")
            }
            return addresses
        }
    }

    /// Whether `host` is `invalid` or a name under it (a trailing dot allowed), in any case.
    static func isSpecialUseInvalid(_ host: String) -> Bool {
        var name = Substring(host.lowercased())
        if name.hasSuffix(".") { name = name.dropLast() }
        return name == "invalid" || name.hasSuffix(".invalid")
    }

    private static func getAddresses(_ host: String) -> Result<[IPAddress], FetchError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
        hints.ai_socktype = SOCK_STREAM
        #else
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let first = list else {
            let reason = String(cString: gai_strerror(status))
            return .failure(
                FetchError(
                    .unresolvableHost,
                    url: host,
                    message: "The host '\(host)' could not be resolved: \(reason)."
                )
            )
        }
        defer { freeaddrinfo(first) }
        var addresses: [IPAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let address = IPAddress(socketAddress: entry.pointee.ai_addr), !addresses.contains(address) {
                addresses.append(address)
            }
            cursor = entry.pointee.ai_next
        }
        guard !addresses.isEmpty else {
            return .failure(FetchError(.unresolvableHost, url: host, message: "The host '\(host)' has no IP address."))
        }
        return .success(addresses)
    }
}

extension IPAddress {
    /// Reads an address from a `sockaddr` as returned by `getaddrinfo`.
    init?(socketAddress: UnsafeMutablePointer<sockaddr>?) {
        guard let socketAddress else { return nil }
        switch Int32(socketAddress.pointee.sa_family) {
        case AF_INET:
            let raw = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr.s_addr }
            self.init(networkOrderV4: raw)
        case AF_INET6:
            var raw = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
            self = .v6(withUnsafeBytes(of: &raw) { Array($0) })
        default:
            return nil
        }
    }
}
