/// Builds gzip streams of zero bytes by hand (no zlib binding needed): a fixed-Huffman deflate block of one
/// literal followed by back-references of length 258 at distance 1, about 13 bits per 258 output bytes, so a
/// 16 MiB body is ~100 KB on the wire: the classic compression bomb shape.
enum GzipZeros {
    /// A complete gzip member whose content is `count` zero bytes.
    static func make(count: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, count: 1)  // BFINAL
        bits.write(1, count: 2)  // BTYPE = 01, fixed Huffman
        var remaining = max(0, count)
        if remaining > 0 {
            bits.writeCode(0x30, length: 8)  // literal 0
            remaining -= 1
        }
        while remaining >= 258 {
            bits.writeCode(0xC5, length: 8)  // length symbol 285 = 258 bytes
            bits.writeCode(0, length: 5)  // distance symbol 0 = 1 byte back
            remaining -= 258
        }
        for _ in 0..<remaining { bits.writeCode(0x30, length: 8) }
        bits.writeCode(0, length: 7)  // end of block, symbol 256
        let header: [UInt8] = [0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]
        let crc = CRC32.zeros(count: count)
        let size = UInt32(truncatingIfNeeded: count)
        return header + bits.finished + littleEndian(crc) + littleEndian(size)
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

/// Packs bits least-significant first, as deflate requires.
private struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var current: UInt32 = 0
    private var used = 0

    /// Writes `count` bits of `value`, low bit first (header fields, extra bits).
    mutating func write(_ value: UInt32, count: Int) {
        for index in 0..<count { push(value >> index & 1) }
    }

    /// Writes a Huffman code, most significant bit first.
    mutating func writeCode(_ code: UInt32, length: Int) {
        for index in stride(from: length - 1, through: 0, by: -1) { push(code >> index & 1) }
    }

    private mutating func push(_ bit: UInt32) {
        current |= bit << used
        used += 1
        if used == 8 {
            bytes.append(UInt8(current))
            current = 0
            used = 0
        }
    }

    /// The bytes written, with the last partial byte padded by zeros.
    var finished: [UInt8] { used == 0 ? bytes : bytes + [UInt8(current)] }
}

/// CRC-32 (IEEE) as gzip uses it.
private enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func zeros(count: Int) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for _ in 0..<count { crc = table[Int(crc & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
