import Foundation
import WebLinks

/// The decodings wrappers use for the text they carry: query parameters as `application/x-www-form-urlencoded` (the
/// WHATWG URL Standard's reading, which `URLSearchParams` and servers share), percent-decoding once, and base64.
enum FormDecoding {
    /// The bytes of the first query parameter called `name` in a link's canonical text, form-decoded: the query (after
    /// the first `?`, before the `#`) split on `&`, each pair's name and value split at its first `=`, both with `+`
    /// read as a space and `%XX` decoded once; names are compared decoded. Nil when no parameter has the name.
    static func queryValue(named name: String, in link: String) -> [UInt8]? {
        guard let question = link.utf8.firstIndex(of: UInt8(ascii: "?")) else { return nil }
        var query = link.utf8[link.utf8.index(after: question)...]
        if let hash = query.firstIndex(of: UInt8(ascii: "#")) { query = query[..<hash] }
        let wanted = Array(name.utf8)
        for pair in query.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let rawName = pair[..<(equals ?? pair.endIndex)]
            let plain = !rawName.contains(UInt8(ascii: "%")) && !rawName.contains(UInt8(ascii: "+"))
            guard plain ? rawName.elementsEqual(wanted) : decoded(rawName, plusAsSpace: true) == wanted else {
                continue
            }
            let value = equals.map { pair[pair.index(after: $0)...] } ?? pair[pair.endIndex...]
            return decoded(value, plusAsSpace: true)
        }
        return nil
    }

    /// `bytes` with every `%XX` (two hexadecimal digits) decoded once, and `+` as a space when `plusAsSpace`; a `%` not
    /// followed by two hexadecimal digits stays as it is (the URL Standard's percent-decode).
    static func decoded(_ bytes: some Collection<UInt8>, plusAsSpace: Bool) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            let next = bytes.index(after: index)
            if byte == UInt8(ascii: "%"), next != bytes.endIndex, bytes.index(after: next) != bytes.endIndex,
                let high = HexDigit.value(bytes[next]), let low = HexDigit.value(bytes[bytes.index(after: next)])
            {
                output.append(high << 4 | low)
                index = bytes.index(after: bytes.index(after: next))
                continue
            }
            output.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
            index = next
        }
        return output
    }

    /// UTF-8 bytes as text, or nil when they are not valid UTF-8.
    static func validText(_ bytes: [UInt8]) -> String? {
        String(validating: bytes, as: UTF8.self)
    }

    /// The bytes of base64 text, padding optional: the standard alphabet (`+`, `/`) or, with `urlSafe`, the URL and
    /// file name safe one (`-`, `_`). Nil when a character is outside the alphabet, the padding is wrong or the length
    /// cannot be base64's.
    static func base64(_ text: String, urlSafe: Bool) -> [UInt8]? {
        var body = Substring(text)
        var padding = 0
        while body.hasSuffix("=") && padding < 2 {
            body.removeLast()
            padding += 1
        }
        let extra: (UInt8, UInt8) =
            urlSafe ? (UInt8(ascii: "-"), UInt8(ascii: "_")) : (UInt8(ascii: "+"), UInt8(ascii: "/"))
        guard body.utf8.count % 4 != 1,
            padding == 0 || (body.utf8.count + padding) % 4 == 0,
            body.utf8.allSatisfy({ isAlphanumeric($0) || $0 == extra.0 || $0 == extra.1 })
        else { return nil }
        var standard = urlSafe ? String(body.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 }) : String(body)
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard).map(Array.init)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
