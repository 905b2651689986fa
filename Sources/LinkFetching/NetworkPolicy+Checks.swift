import Foundation

/// A URL that passed the static checks (syntax, scheme, port), ready for address resolution.
package struct CheckedURL: Sendable, Hashable {
    /// The URL text as fetched.
    package var text: String
    /// The lowercase scheme.
    package var scheme: String
    /// The host as written, without IPv6 brackets.
    package var host: String
    /// The explicit port, or the scheme's default.
    package var port: Int
}

extension NetworkPolicy {
    /// Checks the text of a URL before anything is resolved: syntax, scheme, port.
    package func check(url text: String) throws(FetchError) -> CheckedURL {
        // Swift's URL percent-encodes stray control characters and spaces instead of failing, so they are
        // refused here before parsing; a fetched URL must already be in its encoded form.
        if let bad = text.unicodeScalars.first(where: { $0.value <= 0x20 || $0.value >= 0x7f }) {
            throw .invalidURL(text, "it contains the character U+\(String(bad.value, radix: 16, uppercase: true))")
        }
        guard let url = URL(string: text), let rawScheme = url.scheme else {
            throw .invalidURL(text, "it is not an absolute URL")
        }
        let scheme = rawScheme.lowercased()
        guard allowedSchemes.contains(scheme) else {
            throw FetchError(
                .forbiddenScheme,
                url: text,
                message:
                    "The scheme '\(rawScheme)' of '\(text)' is not allowed (allowed: \(allowedSchemes.sorted().joined(separator: ", ")))."
            )
        }
        guard let rawHost = url.host, !rawHost.isEmpty else {
            throw .invalidURL(text, "it has no host")
        }
        let host = rawHost.hasPrefix("[") && rawHost.hasSuffix("]") ? String(rawHost.dropFirst().dropLast()) : rawHost
        let defaultPort = scheme == "https" ? 443 : 80
        let port = url.port ?? defaultPort
        guard (1...65535).contains(port) else {
            throw .invalidURL(text, "its port \(port) is out of range")
        }
        guard allows(port: port) else {
            throw FetchError(
                .forbiddenPort,
                url: text,
                message:
                    "The port \(port) of '\(text)' is not allowed (allowed: \(allowedPorts.sorted().map(String.init).joined(separator: ", ")))."
            )
        }
        return CheckedURL(text: text, scheme: scheme, host: host, port: port)
    }

    /// Resolves the host of `url` and returns the address to connect to, after checking every resolved address.
    ///
    /// All addresses must pass, not just one: a name that answers with both a public and a private address
    /// could otherwise reach the private one on a retry.
    package func address(for url: CheckedURL) async throws(FetchError) -> IPAddress {
        let addresses: [IPAddress]
        if let literal = IPAddress(url.host) {
            addresses = [literal]
        } else {
            do {
                addresses = try await resolver.resolve(url.host)
            } catch {
                throw FetchError(error.code, url: url.text, message: "Fetching '\(url.text)' failed: \(error.message)")
            }
        }
        guard let first = addresses.first else {
            throw FetchError(.unresolvableHost, url: url.text, message: "The host of '\(url.text)' has no address.")
        }
        if !allowPrivateAddresses {
            for address in addresses where !allowedAddresses.contains(address) {
                if let reason = address.nonPublicReason {
                    throw FetchError(
                        .blockedAddress,
                        url: url.text,
                        message:
                            "The host '\(url.host)' of '\(url.text)' resolves to \(address), a \(reason) address that is not allowed."
                    )
                }
            }
        }
        return first
    }

    /// Resolves a redirect's `Location` against the URL that sent it and checks the result's scheme.
    ///
    /// Raw control characters (CR/LF: header injection) and raw non-ASCII bytes are refused rather than
    /// percent-encoded, because a well-behaved server sends an encoded URL; relative and scheme-relative
    /// values (`/x`, `../y`, `//other.example/x`) are resolved first, then checked like any URL, so a
    /// host change is judged by the same rules on the next hop.
    package func resolve(location raw: String?, from current: String) throws(FetchError) -> String {
        guard let raw, !raw.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw FetchError(.badLocation, url: current, message: "The redirect from '\(current)' has no Location.")
        }
        if raw.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value >= 0x7f }) {
            throw FetchError(
                .badLocation,
                url: current,
                message:
                    "The redirect from '\(current)' has a Location with control or non-ASCII characters: \(raw.debugDescription)."
            )
        }
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        guard let base = URL(string: current), let resolved = URL(string: trimmed, relativeTo: base)?.absoluteURL else {
            throw FetchError(
                .badLocation,
                url: current,
                message: "The redirect from '\(current)' has an unreadable Location '\(trimmed)'."
            )
        }
        let target = resolved.absoluteString
        let scheme = resolved.scheme?.lowercased() ?? ""
        guard allowedSchemes.contains(scheme) else {
            throw FetchError(
                .forbiddenScheme,
                url: target,
                message: "The redirect from '\(current)' goes to '\(target)', whose scheme '\(scheme)' is not allowed."
            )
        }
        return target
    }
}
