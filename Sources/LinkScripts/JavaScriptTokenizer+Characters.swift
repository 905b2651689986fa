// The characters the tokenizer tells apart, and the punctuators it knows.

extension JavaScriptTokenizer {
    /// Every punctuator, longest first so the first match is the longest.
    package static let punctuators: [String] = [
        ">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
        "=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=",
        "^=", "<<", ">>", "**",
        "{", "}", "(", ")", "[", "]", ";", ",", "<", ">", "+", "-", "*", "/", "%", "&", "|", "^", "!", "~", "?",
        ":", "=", ".", "@",
    ]

    /// Whether some punctuator begins with `text`, so that a lexer would read past it.
    package static func isPunctuatorPrefix(_ text: String) -> Bool {
        punctuators.contains { $0.hasPrefix(text) }
    }

    package static func isLineTerminator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x0D, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// Tab, vertical tab, form feed, space, no-break space, byte order mark and the other Unicode space separators.
    package static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0B, 0x0C, 0x20, 0xA0, 0xFEFF, 0x1680, 0x2000...0x200A, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    package static func isDecimalDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }

    package static func isHexDigit(_ scalar: Unicode.Scalar) -> Bool {
        isDecimalDigit(scalar) || ("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)
    }

    /// ASCII letters, `$`, `_`, and any non-ASCII character that is not whitespace (the tokenizer is lenient there).
    package static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "$" || scalar == "_"
        }
        return !isWhitespace(scalar) && !isLineTerminator(scalar)
    }

    /// Identifier starts, digits, and `\` (which begins a `\u` escape).
    package static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || isDecimalDigit(scalar) || scalar == "\\"
    }
}
