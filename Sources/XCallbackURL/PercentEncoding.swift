import Foundation

/// Strict percent-encoding for x-callback-url values: everything but RFC 3986 unreserved characters is escaped,
/// so `+`, `&`, `=`, `#`, `?`, `/`, `:`, spaces and non-ASCII survive any receiver. (URLComponents leaves `+` bare,
/// which form-decoding receivers read as a space, so it is not used for values.)
enum PercentEncoding {
    /// RFC 3986's unreserved characters, the only ones a value keeps bare: `A-Z a-z 0-9 - . _ ~`.
    static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
    )

    /// Encodes every byte of the UTF-8 form except `A-Z a-z 0-9 - . _ ~`, with upper-case hex digits.
    static func encode(_ text: some StringProtocol) -> String {
        // Foundation answers nil only for text that is not valid Unicode, which a Swift string never is; escaping
        // every byte is still a correct encoding of the same text, so that is the fallback rather than bare text.
        String(text).addingPercentEncoding(withAllowedCharacters: unreserved)
            ?? text.utf8.map { String(format: "%%%02X", $0) }.joined()
    }

    /// Decodes once (`%252F` → `%2F`, never `/`); nil for an invalid escape or bytes that are not UTF-8.
    ///
    /// `+` stays `+`: the spec asks for URL-encoded values, and a literal plus is as likely as a form-encoded
    /// space in what apps send, so guessing would corrupt one of them.
    ///
    /// Written by hand, not with Foundation's `removingPercentEncoding`, which (swift-foundation, Swift 6.3.1 on
    /// Linux) drops a leading U+FEFF, so `%EF%BB%BFx` decodes to `x` and such a value would not survive
    /// build → parse, and turns a stray `%A9` into U+FFFD where every other byte that is not UTF-8 gives nil. Both
    /// are pinned by `XCallbackRequestTests`.
    static func decode(_ text: some StringProtocol) -> String? {
        let input = Array(text.utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                index += 1
                continue
            }
            guard index + 2 < input.count, let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2])
            else { return nil }
            bytes.append(high << 4 | low)
            index += 3
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Splits a query into decoded pairs in order, on `&` and then on the first `=` only (values may hold a raw
    /// `=`); a pair without `=` has a nil value, `a=` an empty one. `part` names the URL in errors.
    static func pairs(of query: Substring, in part: String) throws(XCallbackURLError) -> [XCallbackRequest.Parameter] {
        var result: [XCallbackRequest.Parameter] = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: "=")
            let rawName = equals.map { pair[..<$0] } ?? pair
            guard let name = decode(rawName) else {
                throw XCallbackURLError(
                    .badEncoding,
                    part: part,
                    "the parameter name \"\(rawName.prefix(80))\" has an invalid percent escape"
                )
            }
            guard !name.isEmpty else {
                throw XCallbackURLError(.badParameter, part: part, "the pair \"\(pair.prefix(80))\" has an empty name")
            }
            var value: String?
            if let equals {
                let rawValue = pair[pair.index(after: equals)...]
                guard let decoded = decode(rawValue) else {
                    throw XCallbackURLError(
                        .badEncoding,
                        part: name,
                        "the value \"\(rawValue.prefix(80))\" has an invalid percent escape or is not UTF-8"
                    )
                }
                value = decoded
            }
            result.append(XCallbackRequest.Parameter(name, value))
        }
        return result
    }

    /// The encoded `name=value` (or bare `name`) form of a parameter.
    static func pair(_ parameter: XCallbackRequest.Parameter) -> String {
        let name = encode(parameter.name)
        return parameter.value.map { "\(name)=\(encode($0))" } ?? name
    }
}
