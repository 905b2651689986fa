import Foundation

/// The value(s) of one parameter name: a single value (the first occurrence) or a list (every occurrence).
struct ParameterValueDecoder: Decoder, SingleValueDecodingContainer {
    let name: String
    let values: [String?]
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        // URL decodes itself as a keyed {relative, base} object; a query only has its string.
        if type == URL.self {
            let text = try decode(String.self)
            guard let url = URL(string: text), url.scheme != nil else {
                throw XCallbackHandlerError.invalidParameter(name, "is \"\(text.prefix(80))\", not an absolute URL")
            }
            if let url = url as? T { return url }
        }
        return try T(from: self)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw XCallbackHandlerError.invalidParameter(name, "cannot hold nested values")
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { List(name: name, values: values) }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { values.isEmpty }

    func decode(_ type: String.Type) throws -> String { values.first.flatMap { $0 } ?? "" }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard let first = values.first else { return false }
        // A bare `?flag` is the common way to switch an option on.
        guard let text = first else { return true }
        switch text.lowercased() {
        case "true", "yes", "1", "on": return true
        case "false", "no", "0", "off": return false
        default: throw XCallbackHandlerError.invalidParameter(name, "is \"\(text.prefix(80))\", not true or false")
        }
    }

    func decode(_ type: Double.Type) throws -> Double { try convert(type, "a number") }
    func decode(_ type: Float.Type) throws -> Float { try convert(type, "a number") }
    func decode(_ type: Int.Type) throws -> Int { try convert(type, "a whole number") }
    func decode(_ type: Int8.Type) throws -> Int8 { try convert(type, "a whole number") }
    func decode(_ type: Int16.Type) throws -> Int16 { try convert(type, "a whole number") }
    func decode(_ type: Int32.Type) throws -> Int32 { try convert(type, "a whole number") }
    func decode(_ type: Int64.Type) throws -> Int64 { try convert(type, "a whole number") }
    func decode(_ type: UInt.Type) throws -> UInt { try convert(type, "a whole number") }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try convert(type, "a whole number") }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try convert(type, "a whole number") }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try convert(type, "a whole number") }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try convert(type, "a whole number") }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }

    private func convert<T: LosslessStringConvertible>(_ type: T.Type, _ kind: String) throws -> T {
        guard let text = values.first.flatMap({ $0 }) else {
            throw XCallbackHandlerError.invalidParameter(name, "has no value, but \(kind) is needed")
        }
        guard let value = T(text) else {
            throw XCallbackHandlerError.invalidParameter(name, "is \"\(text.prefix(80))\", not \(kind)")
        }
        return value
    }

    /// Repeated parameters as a list.
    struct List: UnkeyedDecodingContainer {
        let name: String
        let values: [String?]
        var codingPath: [any CodingKey] { [] }
        var count: Int? { values.count }
        var currentIndex = 0
        var isAtEnd: Bool { currentIndex >= values.count }

        init(name: String, values: [String?]) {
            self.name = name
            self.values = values
        }

        mutating func decodeNil() throws -> Bool { false }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            guard !isAtEnd else { throw XCallbackHandlerError.invalidParameter(name, "has fewer values than needed") }
            defer { currentIndex += 1 }
            return try ParameterValueDecoder(name: name, values: [values[currentIndex]]).decodeValue(type)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type
        ) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            throw XCallbackHandlerError.invalidParameter(name, "cannot hold nested values")
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw XCallbackHandlerError.invalidParameter(name, "cannot hold nested lists")
        }

        mutating func superDecoder() throws -> any Decoder { ParameterValueDecoder(name: name, values: values) }
    }
}
