import Foundation
import WebLinks

/// Links the wrapper tests build: the inner link most cases carry, and the encodings gateways use.
enum WrapperTestLinks {
    /// The link most wrapped links carry.
    static let inner = "https://twitter.com/jack/status/20"

    /// `text` with every byte but the unreserved ones (`A-Z a-z 0-9 - . _ ~`) percent-encoded, as
    /// `encodeURIComponent` and the gateways' query parameters write a link.
    static func encoded(_ text: String) -> String {
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
        )
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    /// `text` in Proofpoint URL Defense v2's form: percent-encoded, then `%` written `-` and `/` written `_`.
    static func proofpointV2(_ text: String) -> String {
        text.utf8.map { byte -> String in
            let isPlain =
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
            if isPlain { return String(Unicode.Scalar(byte)) }
            if byte == UInt8(ascii: "/") { return "_" }
            return String(format: "-%02X", byte)
        }.joined()
    }

    /// A Safe Links link around `text`.
    static func safeLinks(_ text: String) -> String {
        "https://nam10.safelinks.protection.outlook.com/?url=\(encoded(text))&data=05%7C02%7C%7Cabc%7C0&sdata=xyz%3D&reserved=0"
    }

    /// A Trend Micro click-time link around `text`.
    static func trendMicro(_ text: String) -> String {
        "https://imsva91-ctp.trendmicro.com:443/wis/clicktime/v1/query?url=\(encoded(text))&umid=4a2b&auth=0f1e"
    }

    /// A Slack redirect around `text`.
    static func slack(_ text: String) -> String {
        "https://slack-redir.net/link?url=\(encoded(text))&v=3"
    }
}
