/// Hashes that are the same in every process and on every platform (unlike `Hasher`, which is seeded per process),
/// and bytes as hexadecimal digits: fixture file names, cache records, the choices' revision and the server's entity
/// tags are all spelt here.
package enum StableHash {
    /// FNV-1a 64 of the UTF-8 bytes of `text`, as 16 hexadecimal digits.
    package static func hex(_ text: String) -> String { hex(text.utf8) }

    /// FNV-1a 64 of `bytes`, as 16 hexadecimal digits.
    package static func hex(_ bytes: some Sequence<UInt8>) -> String {
        var hasher = FNV1a()
        hasher.combine(bytes)
        return hasher.hex
    }

    /// Bytes as lower-case hexadecimal digits, two per byte (a digest as SHA-256's publishers write it).
    package static func hexadecimal(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
        return String(decoding: text, as: UTF8.self)
    }

    /// FNV-1a 64 (Fowler–Noll–Vo), fed piece by piece: a fast hash for names and revisions, not for security.
    package struct FNV1a: Sendable {
        /// The hash of what has been combined so far.
        package private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

        /// The hash of nothing.
        package init() {}

        /// Hashes `bytes` in after what came before.
        package mutating func combine(_ bytes: some Sequence<UInt8>) {
            for byte in bytes { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        }

        /// The hash as 16 hexadecimal digits (big-endian: the digits of the number, zeros in front).
        package var hex: String { StableHash.hexadecimal(withUnsafeBytes(of: value.bigEndian) { Array($0) }) }
    }
}
