/// A strict RFC 8259 JSON reader that keeps object member order and the position of every value.
///
/// Decisions (documented once, applied everywhere): a UTF-8 byte-order mark is skipped; trailing commas, comments,
/// `NaN` and single quotes are syntax errors (Foundation silently accepts trailing commas; a validator must not);
/// invalid UTF-8 inside a string is an encoding error; nesting deeper than ``maximumDepth`` is rejected instead of
/// overflowing the stack.
public struct JSONReader: Sendable {
    /// The deepest nesting accepted. Real manifests nest 5 levels.
    public var maximumDepth: Int

    /// Creates a reader.
    public init(maximumDepth: Int = 256) {
        self.maximumDepth = maximumDepth
    }

    /// Parses a complete JSON text.
    public func parse(_ bytes: [UInt8]) throws(JSONReaderError) -> JSONNode {
        var cursor = Cursor(bytes: bytes, maximumDepth: maximumDepth)
        return try cursor.parseDocument()
    }

    /// Parses a complete JSON text given as a string.
    public func parse(_ text: String) throws(JSONReaderError) -> JSONNode {
        try parse(Array(text.utf8))
    }
}

/// Why a JSON text could not be read, and where.
public struct JSONReaderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable {
        case syntax = "E_JSON_SYNTAX"
        case encoding = "E_ENCODING"
        case depth = "E_JSON_DEPTH"
    }

    /// The kind of failure.
    public var code: Code
    /// What was wrong, in one sentence.
    public var message: String
    /// Where it was found.
    public var position: SourcePosition

    /// `line:column (offset N): message`.
    public var description: String { "\(position) (offset \(position.offset)): \(message)" }
}

private struct Cursor {
    let bytes: [UInt8]
    let maximumDepth: Int
    var index = 0
    var line = 1
    var lineStart = 0
    var depth = 0

    init(bytes: [UInt8], maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        }
    }

    var position: SourcePosition {
        SourcePosition(line: line, column: index - lineStart + 1, offset: index)
    }

    func error(_ message: String, code: JSONReaderError.Code = .syntax) -> JSONReaderError {
        JSONReaderError(code: code, message: message, position: position)
    }

    mutating func parseDocument() throws(JSONReaderError) -> JSONNode {
        skipWhitespace()
        if index >= bytes.count {
            throw error("the text is empty: expected a JSON value at line 1")
        }
        let node = try parseValue()
        skipWhitespace()
        if index < bytes.count {
            throw error("unexpected \(describe(bytes[index])) after the end of the JSON value")
        }
        return node
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F {
            return "'\(Character(Unicode.Scalar(byte)))'"
        }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    mutating func parseValue() throws(JSONReaderError) -> JSONNode {
        guard index < bytes.count else {
            throw error("the text ends where a value was expected (truncated JSON?)")
        }
        let start = position
        switch bytes[index] {
        case UInt8(ascii: "{"):
            return JSONNode(.object(try parseObject()), at: start)
        case UInt8(ascii: "["):
            return JSONNode(.array(try parseArray()), at: start)
        case UInt8(ascii: "\""):
            return JSONNode(.string(try parseString()), at: start)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return JSONNode(.bool(true), at: start)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return JSONNode(.bool(false), at: start)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return JSONNode(.null, at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(.number(try parseNumber()), at: start)
        case let byte:
            throw error("unexpected \(describe(byte)) where a value was expected")
        }
    }

    mutating func enter() throws(JSONReaderError) {
        depth += 1
        if depth > maximumDepth {
            throw error("nesting is deeper than \(maximumDepth) levels", code: .depth)
        }
    }

    mutating func parseObject() throws(JSONReaderError) -> [JSONMember] {
        try enter()
        index += 1
        var members: [JSONMember] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return members
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("the text ends inside an object (truncated JSON?)") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                if bytes[index] == UInt8(ascii: "}") { throw error("trailing comma before '}'") }
                throw error("expected a member name in double quotes, found \(describe(bytes[index]))")
            }
            let keyPosition = position
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after member name \"\(key)\"")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            members.append(JSONMember(key: key, keyPosition: keyPosition, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw error("the text ends inside an object (truncated JSON?)") }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return members
            case let byte:
                throw error("expected ',' or '}' in an object, found \(describe(byte))")
            }
        }
    }

    mutating func parseArray() throws(JSONReaderError) -> [JSONNode] {
        try enter()
        index += 1
        var elements: [JSONNode] = []
        skipWhitespace()
        if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return elements
        }
        while true {
            skipWhitespace()
            if index < bytes.count && bytes[index] == UInt8(ascii: "]") {
                throw error("trailing comma before ']'")
            }
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("the text ends inside an array (truncated JSON?)") }
            switch bytes[index] {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return elements
            case let byte:
                throw error("expected ',' or ']' in an array, found \(describe(byte))")
            }
        }
    }

    mutating func expectLiteral(_ literal: String) throws(JSONReaderError) {
        let expected = literal.utf8
        guard index + expected.count <= bytes.count, bytes[index..<index + expected.count].elementsEqual(expected)
        else {
            throw error("invalid literal: expected \(literal)")
        }
        index += expected.count
    }

    mutating func parseNumber() throws(JSONReaderError) -> String {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw error("invalid number: expected a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count && isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("invalid number: expected a digit after '.'")
            }
            while index < bytes.count && isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            index += 1
            if index < bytes.count && (bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-")) {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw error("invalid number: expected a digit in the exponent")
            }
            while index < bytes.count && isDigit(bytes[index]) { index += 1 }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    mutating func parseString() throws(JSONReaderError) -> String {
        let openingQuote = position
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = bytes[start..<index]
                guard let string = String(validating: slice, as: UTF8.self) else {
                    throw JSONReaderError(
                        code: .encoding,
                        message: "a string contains invalid UTF-8",
                        position: openingQuote
                    )
                }
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("a control character (\(describe(byte))) must be escaped inside a string") }
            index += 1
        }
        var scratch = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = String(validating: scratch, as: UTF8.self) else {
                    throw JSONReaderError(
                        code: .encoding,
                        message: "a string contains invalid UTF-8",
                        position: openingQuote
                    )
                }
                return string
            case UInt8(ascii: "\\"):
                index += 1
                try appendEscape(to: &scratch)
            case 0..<0x20:
                throw error("a control character (\(describe(byte))) must be escaped inside a string")
            default:
                scratch.append(byte)
                index += 1
            }
        }
        throw JSONReaderError(
            code: .syntax,
            message: "a string is not terminated (truncated JSON?)",
            position: openingQuote
        )
    }

    mutating func appendEscape(to scratch: inout [UInt8]) throws(JSONReaderError) {
        guard index < bytes.count else { throw error("the text ends inside an escape sequence") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): scratch.append(0x22)
        case UInt8(ascii: "\\"): scratch.append(0x5C)
        case UInt8(ascii: "/"): scratch.append(0x2F)
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try readHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw error("an unpaired UTF-16 surrogate escape", code: .encoding) }
                index += 2
                let low = try readHex4()
                guard (0xDC00...0xDFFF).contains(low) else {
                    throw error("an unpaired UTF-16 surrogate escape", code: .encoding)
                }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("an unpaired UTF-16 surrogate escape", code: .encoding)
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("an invalid \\u escape", code: .encoding) }
            scratch.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
            index -= 1
            throw error("invalid escape sequence \\\(describe(escape))")
        }
    }

    mutating func readHex4() throws(JSONReaderError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("the text ends inside a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit \(describe(byte)) in a \\u escape")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }
}
