/// JavaScript's URI encoders, as ECMA-262 defines them, for the host's own use (``ScriptTemplate``,
/// ``RequestForecast``). A Swift string holds no lone surrogate, so neither can throw `URIError` here.
enum JavaScriptEncoding {
    /// ECMA-262's uriUnreserved: ASCII letters and digits and `-_.!~*'()`.
    private static let componentUnreserved: [Bool] = {
        var table = [Bool](repeating: false, count: 128)
        for scalar in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()".utf8 {
            table[Int(scalar)] = true
        }
        return table
    }()

    /// `encodeURI` also keeps uriReserved and `#`.
    private static let uriUnreserved: [Bool] = {
        var table = componentUnreserved
        for scalar in ";/?:@&=+$,#".utf8 { table[Int(scalar)] = true }
        return table
    }()

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// JavaScript's `encodeURIComponent(input)`.
    static func encodeURIComponent(_ input: String) -> String {
        encode(input, keeping: componentUnreserved)
    }

    /// JavaScript's `encodeURI(input)`.
    static func encodeURI(_ input: String) -> String {
        encode(input, keeping: uriUnreserved)
    }

    /// Encode(string, extraUnescaped) of ECMA-262: each code point outside the kept set as its UTF-8 bytes, `%XX` with
    /// upper-case digits.
    private static func encode(_ input: String, keeping kept: [Bool]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(input.utf8.count * 3)
        for byte in input.utf8 {
            if byte < 128, kept[Int(byte)] {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

}
