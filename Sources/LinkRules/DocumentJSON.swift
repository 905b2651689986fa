import Foundation

/// Compact JSON text written byte by byte, exactly as the documents' `JSONEncoder` writes it (keys sorted, slashes
/// unescaped): for the documents a server writes thousands of times a second, where Foundation's encoder on Linux
/// cost a third of each request (its boxes, dictionaries and key sorting, per value).
///
/// Documents write themselves into it through their one description (``DocumentWritable``), which gives members in
/// sorted key order (byte order of the keys' UTF-8, as `JSONEncoder` sorts them); strings are escaped as `JSONEncoder`
/// escapes them: `"` and `\`, `\b \t \n \f \r`, other control characters as `\u00xx`, everything else as itself.
/// `DocumentJSONTests` checks that a document written here and through `JSONEncoder` are the same bytes.
package struct DocumentJSON: Sendable {
    /// The text so far.
    package private(set) var bytes: [UInt8] = []
    /// Whether a member written through `Encodable` (``encoded(_:)``) could not be
    /// encoded: the text is then incomplete, and the document must go through `JSONEncoder`, which throws.
    package private(set) var failed = false
    /// Whether the next member or element of the open container is its first.
    private var first = true

    /// An empty text, with room for `capacity` bytes.
    package init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    /// Opens an object: `{`.
    package mutating func openObject() {
        bytes.append(UInt8(ascii: "{"))
        first = true
    }

    /// Closes an object: `}`.
    package mutating func closeObject() {
        bytes.append(UInt8(ascii: "}"))
        first = false
    }

    /// Opens an array: `[`.
    package mutating func openArray() {
        bytes.append(UInt8(ascii: "["))
        first = true
    }

    /// Closes an array: `]`.
    package mutating func closeArray() {
        bytes.append(UInt8(ascii: "]"))
        first = false
    }

    /// An array of `elements`, each written by `write`.
    package mutating func array<Element>(_ elements: [Element], _ write: (Element, inout DocumentJSON) -> Void) {
        openArray()
        for element in elements {
            self.element()
            write(element, &self)
        }
        closeArray()
    }

    /// Starts the next element of the open array (a comma unless it is the first).
    package mutating func element() {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
    }

    /// Starts the next member of the open object: `,"key":` (the key is one of the caller's own, written as is,
    /// so it must need no escaping).
    package mutating func key(_ key: StaticString) {
        element()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Members already written as JSON text (`"a":1,"b":"x"`; nothing: none), after a comma unless they are the open
    /// object's first.
    package mutating func members(_ text: [UInt8]) {
        guard !text.isEmpty else { return }
        element()
        bytes.append(contentsOf: text)
    }

    /// A string value.
    package mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var start = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                start = index + 1
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
                case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
                case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
                case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
                case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
                case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
                case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
                default:
                    bytes.append(contentsOf: [
                        UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                    ])
                    bytes.append(Self.hexDigit(byte >> 4))
                    bytes.append(Self.hexDigit(byte & 0xF))
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// The lowercase hexadecimal digit of `value` (0–15), as `JSONEncoder` writes `\u00xx`.
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    /// An integer value.
    package mutating func int(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A Boolean value.
    package mutating func bool(_ value: Bool) {
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    /// `null`.
    package mutating func null() {
        bytes.append(contentsOf: "null".utf8)
    }
}

extension DocumentJSON {
    /// A value as `JSONEncoder` writes it with the documents' settings; `null`, and ``failed`` set, when it cannot be
    /// encoded.
    package mutating func encoded(_ value: some Encodable) {
        guard let encoded = try? DocumentEncoder.json().encode(value) else {
            failed = true
            null()
            return
        }
        bytes.append(contentsOf: encoded)
    }
}
