import Foundation
import WebLinks

/// A URL that passed the static checks (scheme, port), ready for address resolution.
package struct CheckedURL: Sendable, Hashable {
    /// The link.
    package var link: Link
    /// The URL text as sent on the wire.
    package var text: String { link.requestText }
    /// The host as a resolver takes it (without IPv6 brackets).
    package var host: String { link.hostName }
    /// The request text after the authority: the path, query and fragment as sent.
    package var pathAndQuery: Substring {
        let authority = link.scheme + "://" + link.host + (link.port.map { ":\($0)" } ?? "")
        let text = link.requestText
        return text.hasPrefix(authority) ? text.dropFirst(authority.count) : "/"
    }
    /// The port a connection uses.
    package var port: Int { link.effectivePort }
}

extension NetworkPolicy {
    /// Checks a link before anything is resolved: its scheme and port. The link itself was parsed once, by the parser
    /// matching uses too, and that parser checked that Foundation's `URL` (what the client is given) reads the same
    /// host and port.
    package func check(url link: Link) throws(FetchError) -> CheckedURL {
        guard allowedSchemes.contains(link.scheme) else {
            throw FetchError(
                .forbiddenScheme,
                url: link.text,
                message:
                    "The scheme '\(link.scheme)' of '\(link.text)' is not allowed (allowed: \(allowedSchemes.sorted().joined(separator: ", ")))."
            )
        }
        guard allows(port: link.effectivePort) else {
            let ports = allowedPorts.sorted().map(String.init)
            let fetched =
                switch ports.count {
                case 0: "no port is fetched"
                case 1: "only port \(ports[0]) is fetched"
                default: "only ports \(ports.dropLast().joined(separator: ", ")) and \(ports.last ?? "") are fetched"
                }
            throw FetchError(
                .forbiddenPort,
                url: link.text,
                message:
                    "The port \(link.effectivePort) of '\(link.text)' is refused: \(fetched) \(Self.unlessPrivateAllowed)."
            )
        }
        return CheckedURL(link: link)
    }

    /// What lifts the port and address rules, named as the CLI and `switchyard serve` take it (an embedder sets
    /// ``allowPrivateAddresses``).
    static let unlessPrivateAllowed = "unless private addresses are allowed (--allow-private-addresses)"

    /// Resolves the host of `url` and returns the address to connect to, after checking every resolved address.
    ///
    /// All addresses must pass, not just one: a name that answers with both a public and a private address
    /// could otherwise reach the private one on a retry.
    package func address(for url: CheckedURL) async throws(FetchError) -> IPAddress {
        try await connection(for: url).address
    }

    /// Where a connection for `url` goes: the address of its host, or of a ``connectTo`` override's address, with
    /// the port to connect to; every resolved address checked, and an override's port too.
    package func connection(for url: CheckedURL) async throws(FetchError) -> (address: IPAddress, port: Int) {
        let override = connectionOverride(for: url.link)
        if let override, !allows(port: override.addressPort) {
            throw FetchError(
                .forbiddenPort,
                url: url.text,
                message:
                    "The connection for '\(url.text)' goes to port \(override.addressPort) (--connect-to \(override)), which is not allowed (allowed: \(allowedPorts.sorted().map(String.init).joined(separator: ", ")))."
            )
        }
        let host = override?.address ?? url.host
        let addresses: [IPAddress]
        if let literal = IPAddress(host) {
            addresses = [literal]
        } else {
            do {
                addresses = try await resolver.resolve(host)
            } catch {
                throw FetchError(error.code, url: url.text, message: "Fetching '\(url.text)' failed: \(error.message)")
            }
        }
        guard let first = addresses.first else {
            throw FetchError(.unresolvableHost, url: url.text, message: "The host of '\(url.text)' has no address.")
        }
        let via = override.map { " (connecting to \($0.address) by --connect-to \($0))" } ?? ""
        if !allowPrivateAddresses {
            for address in addresses where !allowedAddresses.contains(address) {
                if let reason = address.nonPublicReason {
                    throw FetchError(
                        .blockedAddress,
                        url: url.text,
                        message:
                            "The host '\(url.host)' of '\(url.text)'\(via) resolves to \(address), a \(reason) address, which is refused \(Self.unlessPrivateAllowed)."
                    )
                }
            }
        }
        return (first, override?.addressPort ?? url.port)
    }
}
