import Foundation
import WebLinks

/// The HTML Standard's character references in attribute values: named ones from its table (`&amp;`, `&eacute;`, the
/// legacy forms without `;` such as `&amp`), and numeric ones (`&#39;`, `&#x27;`), decoded as the tokenizer decodes
/// them there.
enum HTMLCharacterReference {
    /// The named references, by name as written after `&` (with its `;`, or without for the legacy ones): the HTML
    /// Standard's table (`entities.json`; Python's `html.entities.html5` is the same), kept in
    /// `html-character-references.json`.
    static let named: [String: String] = {
        guard let url = Bundle.module.url(forResource: "html-character-references", withExtension: "json"),
            let data = try? Data(contentsOf: url), let root = try? JSONReader().parse(Array(data))
        else { return ["amp;": "&", "amp": "&", "lt;": "<", "gt;": ">", "quot;": "\"", "apos;": "'"] }
        var table: [String: String] = [:]
        for member in root.members ?? [] {
            if let value = member.value.stringValue { table[member.key] = value }
        }
        return table
    }()

    /// The longest name in the table (`CounterClockwiseContourIntegral;`).
    static let longestName = 32

    /// Decodes the reference that starts after the `&` at `start` of `input`, inside an attribute value: what it stands
    /// for and where the text after it starts, or nil when the `&` is a plain character there.
    static func decode(_ input: [Unicode.Scalar], at start: Int) -> (text: [Unicode.Scalar], end: Int)? {
        guard start < input.count else { return nil }
        if input[start] == "#" { return numeric(input, at: start + 1) }
        guard isAlphanumeric(input[start]) else { return nil }
        var end = start
        while end < input.count, end - start < longestName, isAlphanumeric(input[end]) { end += 1 }
        let name = String(String.UnicodeScalarView(input[start..<end]))
        if end < input.count, input[end] == ";", let value = named[name + ";"] {
            return (Array(value.unicodeScalars), end + 1)
        }
        // The longest legacy name (without `;`) the letters start with, as the tokenizer's longest match finds it.
        for length in stride(from: end - start, through: 1, by: -1) {
            let prefix = String(name.unicodeScalars.prefix(length).map(Character.init))
            guard let value = named[prefix] else { continue }
            let next = start + length
            // In an attribute, `&copy=` and `&copyx` stay as written (query strings would break otherwise).
            if next < input.count, input[next] == "=" || isAlphanumeric(input[next]) { return nil }
            return (Array(value.unicodeScalars), next)
        }
        return nil
    }

    /// `&#…`: decimal, or hexadecimal after `x`; the `;` is optional. Zero, surrogates and values past U+10FFFF are
    /// U+FFFD; C1 controls are read as windows-1252 (`&#x80;` is `€`), as the standard says.
    private static func numeric(_ input: [Unicode.Scalar], at start: Int) -> (text: [Unicode.Scalar], end: Int)? {
        var position = start
        var radix: UInt32 = 10
        if position < input.count, input[position] == "x" || input[position] == "X" {
            radix = 16
            position += 1
        }
        let digitsStart = position
        var value: UInt32 = 0
        while position < input.count, let digit = digitValue(input[position], radix: radix) {
            value = value > 0x10FFFF ? value : value * radix + digit
            position += 1
        }
        guard position > digitsStart else { return nil }
        if position < input.count, input[position] == ";" { position += 1 }
        return ([scalar(for: value)], position)
    }

    private static func scalar(for value: UInt32) -> Unicode.Scalar {
        if value == 0 || value > 0x10FFFF || (0xD800...0xDFFF).contains(value) { return "\u{FFFD}" }
        if let replacement = windows1252[value] { return replacement }
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    /// The C1 code points the standard reads as windows-1252's characters.
    private static let windows1252: [UInt32: Unicode.Scalar] = [
        0x80: "\u{20AC}", 0x82: "\u{201A}", 0x83: "\u{0192}", 0x84: "\u{201E}", 0x85: "\u{2026}", 0x86: "\u{2020}",
        0x87: "\u{2021}", 0x88: "\u{02C6}", 0x89: "\u{2030}", 0x8A: "\u{0160}", 0x8B: "\u{2039}", 0x8C: "\u{0152}",
        0x8E: "\u{017D}", 0x91: "\u{2018}", 0x92: "\u{2019}", 0x93: "\u{201C}", 0x94: "\u{201D}", 0x95: "\u{2022}",
        0x96: "\u{2013}", 0x97: "\u{2014}", 0x98: "\u{02DC}", 0x99: "\u{2122}", 0x9A: "\u{0161}", 0x9B: "\u{203A}",
        0x9C: "\u{0153}", 0x9E: "\u{017E}", 0x9F: "\u{0178}",
    ]

    private static func digitValue(_ scalar: Unicode.Scalar, radix: UInt32) -> UInt32? {
        switch scalar {
        case "0"..."9": scalar.value - 48
        case "a"..."f" where radix == 16: scalar.value - 87
        case "A"..."F" where radix == 16: scalar.value - 55
        default: nil
        }
    }

    static func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
    }
}
