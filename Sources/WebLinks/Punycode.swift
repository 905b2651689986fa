/// RFC 3492's Punycode decoder, for the labels of a host that begin with `xn--` (IDNA's ACE prefix).
///
/// Only decoding is needed: a label's validity is then decided by converting the decoded text back (UTS #46, through
/// Foundation's `URL`) and comparing, which is also what proves the round trip.
enum Punycode {
    /// Why a label does not decode.
    enum Failure: Error, Equatable {
        /// A character that is not a letter or digit where an encoded number is read.
        case badDigit(Unicode.Scalar)
        /// The text ends in the middle of an encoded number.
        case truncated
        /// A number too large to be a code point.
        case overflow
        /// A non-ASCII character in the encoded text, which is ASCII by definition.
        case nonBasic(Unicode.Scalar)
        /// An encoded number that gives a surrogate, which is no Unicode scalar.
        case surrogate(UInt32)

        /// The reason, in words.
        var reason: String {
            switch self {
            case .badDigit(let scalar): "\"\(scalar)\" is not a Punycode digit"
            case .truncated: "it ends in the middle of an encoded character"
            case .overflow: "it encodes a number beyond the last Unicode code point"
            case .nonBasic(let scalar): "it has the non-ASCII character U+\(Self.hex(scalar.value))"
            case .surrogate(let value): "it encodes the surrogate U+\(Self.hex(value)), which is no character"
            }
        }

        private static func hex(_ value: UInt32) -> String {
            let digits = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        }
    }

    private static let base = 36
    private static let tMin = 1
    private static let tMax = 26
    private static let skew = 38
    private static let damp = 700
    private static let initialBias = 72
    private static let initialN = 0x80

    /// The Unicode text a Punycode string (the part of a label after `xn--`) encodes, as RFC 3492 section 6.2 decodes
    /// it. The input is ASCII; basic code points before the last hyphen are copied as they are.
    static func decode(_ encoded: some StringProtocol) throws(Failure) -> String.UnicodeScalarView {
        let input = Array(encoded.unicodeScalars)
        if let nonBasic = input.first(where: { !$0.isASCII }) { throw .nonBasic(nonBasic) }
        var output: [Unicode.Scalar] = []
        var position = 0
        if let delimiter = input.lastIndex(of: "-") {
            output = Array(input[..<delimiter])
            // Only when something was copied is the delimiter consumed (RFC 3492, 6.2).
            position = delimiter > 0 ? delimiter + 1 : 0
        }
        var n = initialN
        var i = 0
        var bias = initialBias
        while position < input.count {
            let oldI = i
            var weight = 1
            var k = base
            while true {
                guard position < input.count else { throw .truncated }
                let scalar = input[position]
                position += 1
                guard let digit = digitValue(scalar) else { throw .badDigit(scalar) }
                // Every intermediate value stays far below Int's range: past 0x10FFFF × the output's length it fails.
                let (product, overflowed) = digit.multipliedReportingOverflow(by: weight)
                guard !overflowed, product <= Self.limit - i else { throw .overflow }
                i += product
                let threshold = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if digit < threshold { break }
                guard weight <= Self.limit / (base - threshold) else { throw .overflow }
                weight *= base - threshold
                k += base
            }
            let count = output.count + 1
            bias = adapt(delta: i - oldI, count: count, first: oldI == 0)
            n += i / count
            guard n <= 0x10FFFF else { throw .overflow }
            i %= count
            // `n` starts at 0x80 and only grows: no encoded number gives an ASCII character.
            let value = UInt32(n)
            guard let scalar = Unicode.Scalar(value) else { throw .surrogate(value) }
            output.insert(scalar, at: i)
            i += 1
        }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: output)
        return view
    }

    /// A bound on the decoder's running numbers, as RFC 3492's `maxint` (the 32-bit range its sample code uses).
    private static let limit = Int(Int32.max)

    /// `a`–`z` (either case) are 0–25 and `0`–`9` are 26–35.
    private static func digitValue(_ scalar: Unicode.Scalar) -> Int? {
        switch scalar {
        case "a"..."z": Int(scalar.value) - 0x61
        case "A"..."Z": Int(scalar.value) - 0x41
        case "0"..."9": Int(scalar.value) - 0x30 + 26
        default: nil
        }
    }

    /// RFC 3492's bias adaptation after each decoded character.
    private static func adapt(delta: Int, count: Int, first: Bool) -> Int {
        var delta = first ? delta / damp : delta / 2
        delta += delta / count
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }
}
