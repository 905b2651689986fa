import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The canonical form of a web link's host, as the WHATWG URL Standard reads hosts of special schemes: IPv6 literals
/// compressed, numbers as IPv4 addresses, names lower-cased and in punycode, every `xn--` label valid punycode.
enum LinkHost {
    static func canonical(_ text: Substring) throws(LinkError) -> String {
        guard !text.isEmpty else { throw LinkError(code: .badHost, message: "the link has an empty host") }
        if text.hasPrefix("[") { return try ipv6(text) }
        // A client that decodes escapes and one that does not would read two hosts (`%74witter.com`).
        guard !text.contains("%") else {
            throw LinkError(
                code: .badHost,
                message: "the host \"\(text)\" has percent escapes, which HTTP clients and browsers read differently"
            )
        }
        var host = text.lowercased()
        guard !host.contains(" ") else {
            throw LinkError(code: .badHost, message: "the host \"\(text)\" contains a space")
        }
        let isASCII = host.utf8.allSatisfy { $0 < 0x80 }
        if !isASCII {
            // One host form everywhere: punycode, as Foundation's URL (UTS #46) gives it, so a look-alike Unicode host
            // never matches the ASCII rules of the service it imitates.
            guard let ascii = URL(string: "http://\(host)/")?.host, ascii.utf8.allSatisfy({ $0 < 0x80 }), !ascii.isEmpty
            else {
                // The conversion checks `xn--` labels too, and says nothing: name the label when it is one of them.
                try checkPunycodeLabels(in: host, wholeHost: false)
                throw LinkError(
                    code: .badHost,
                    message: "the host \"\(text)\" is not a valid international domain name"
                )
            }
            host = ascii.lowercased()
        }
        // After the conversion, which maps an ideographic full stop (`。`) to a dot.
        if host.hasSuffix(".") && host.count > 1 {
            host.removeLast()
            // One trailing dot is the DNS root; another would be an empty label, which no resolver accepts.
            guard !host.hasSuffix(".") else {
                throw LinkError(
                    code: .badHost,
                    message: "the host \"\(text)\" ends with an empty label (two trailing dots)"
                )
            }
        }
        if let forbidden = host.unicodeScalars.first(where: isForbiddenInDomain) {
            throw LinkError(
                code: .badHost,
                message: "the host \"\(text)\" contains the character \"\(forbidden)\", which no host may contain"
            )
        }
        // Foundation converts only hosts with non-ASCII characters, and passes an `xn--` label of one through as it is:
        // every `xn--` label of the ASCII host is checked here.
        try checkPunycodeLabels(in: host, wholeHost: true)
        if endsInANumber(host) {
            guard let address = ipv4(host) else {
                throw LinkError(
                    code: .badHost,
                    message: "the host \"\(text)\" ends in a number but is not an IPv4 address"
                )
            }
            return address
        }
        return host
    }

    /// WHATWG's forbidden domain code points (C0 controls and DEL were refused before).
    static func isForbiddenInDomain(_ scalar: Unicode.Scalar) -> Bool {
        "#%/:<>?@[\\]^|".unicodeScalars.contains(scalar) || scalar.value <= 0x20 || scalar.value == 0x7F
    }

    /// Whether the last label (ignoring one trailing dot) is all digits or `0x` and hex digits: the host is then an
    /// IPv4 address in one of the number forms browsers accept (and glibc resolves the same way).
    static func endsInANumber(_ host: String) -> Bool {
        var labels = host.split(separator: ".", omittingEmptySubsequences: false)
        if labels.last == "", labels.count > 1 { labels.removeLast() }
        guard let last = labels.last, !last.isEmpty else { return false }
        if last.allSatisfy({ $0.isASCII && $0.isNumber }) { return true }
        let lowered = last.lowercased()
        return lowered.hasPrefix("0x") && lowered.dropFirst(2).allSatisfy(\.isHexDigit)
    }

    /// WHATWG's IPv4 parser: up to four parts, each decimal, `0x` hexadecimal or `0`-octal, the last filling the
    /// remaining bytes (`0x7f.1` → `127.0.0.1`, `2130706433` → `127.0.0.1`); nil on any part out of range.
    static func ipv4(_ host: String) -> String? {
        var parts = host.split(separator: ".", omittingEmptySubsequences: false)
        if parts.last == "", parts.count > 1 { parts.removeLast() }
        guard (1...4).contains(parts.count) else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            guard !part.isEmpty else { return nil }
            let lowered = part.lowercased()
            let value: UInt64?
            if lowered.hasPrefix("0x") {
                value = lowered.count == 2 ? 0 : UInt64(lowered.dropFirst(2), radix: 16)
            } else if lowered.count > 1 && lowered.hasPrefix("0") {
                value = UInt64(lowered.dropFirst(), radix: 8)
            } else {
                value = UInt64(lowered, radix: 10)
            }
            guard let value else { return nil }
            numbers.append(value)
        }
        guard numbers.dropLast().allSatisfy({ $0 <= 255 }) else { return nil }
        let lastLimit = UInt64(1) << (8 * UInt64(5 - numbers.count))
        guard let last = numbers.last, last < lastLimit else { return nil }
        var address = last
        for (index, number) in numbers.dropLast().enumerated() {
            address += number << (8 * UInt64(3 - index))
        }
        return (0..<4).map { String((address >> (8 * UInt64(3 - $0))) & 0xFF) }.joined(separator: ".")
    }

    /// An IPv6 literal, validated and written as the WHATWG URL Standard serialises it: lower-case hexadecimal
    /// pieces without leading zeros, the first longest run of two or more zero pieces as `::`.
    static func ipv6(_ text: Substring) throws(LinkError) -> String {
        let inner = String(text.dropFirst().dropLast())
        var address = in6_addr()
        guard text.hasSuffix("]"), inet_pton(AF_INET6, inner, &address) == 1 else {
            throw LinkError(code: .badHost, message: "the host \"\(text)\" is not an IPv6 address")
        }
        let bytes = withUnsafeBytes(of: &address) { Array($0) }
        let pieces = (0..<8).map { UInt16(bytes[2 * $0]) << 8 | UInt16(bytes[2 * $0 + 1]) }
        var bestStart = -1
        var bestLength = 1
        var index = 0
        while index < 8 {
            guard pieces[index] == 0 else {
                index += 1
                continue
            }
            let start = index
            while index < 8, pieces[index] == 0 { index += 1 }
            if index - start > bestLength {
                bestStart = start
                bestLength = index - start
            }
        }
        var output = "["
        index = 0
        while index < 8 {
            if index == bestStart {
                output += index == 0 ? "::" : ":"
                index += bestLength
                continue
            }
            output += String(pieces[index], radix: 16)
            if index < 7 { output += ":" }
            index += 1
        }
        return output + "]"
    }
}
