/// The value of one hexadecimal digit, as a percent escape (`%3A`) writes it: the one reader of escapes' digits for
/// every module that decodes them (LinkWrappers' wrappers, LinkCleaning's field names, DomainClaims' components).
package enum HexDigit {
    /// `0`–`9`, `a`–`f` and `A`–`F` as 0–15; nil for any other byte.
    package static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
