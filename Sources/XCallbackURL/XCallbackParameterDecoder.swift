/// Decodes action parameters into a `Decodable` type for typed handlers: each stored property is a parameter.
///
/// Strings, numbers, `Bool` (`true/false/yes/no/1/0`, or a bare `?flag`), `URL`, `String`-backed enums,
/// optionals (absent parameter → nil) and arrays (repeated parameters, `?tag=a&tag=b`) are supported; nesting is
/// not, since a query is flat. Failures are ``XCallbackHandlerError``s with `errorCode=invalidParameter`.
struct XCallbackParameterDecoder: Decoder {
    let parameters: [XCallbackRequest.Parameter]
    let codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Decodes `type` from the parameters.
    static func decode<T: Decodable>(
        _ type: T.Type,
        from parameters: [XCallbackRequest.Parameter]
    )
        throws(XCallbackHandlerError) -> T
    {
        do {
            return try T(from: XCallbackParameterDecoder(parameters: parameters))
        } catch let error as XCallbackHandlerError {
            throw error
        } catch let DecodingError.keyNotFound(key, _) {
            throw .invalidParameter(key.stringValue, "is missing")
        } catch let DecodingError.dataCorrupted(context) {
            throw .invalidParameter(
                context.codingPath.first?.stringValue ?? "?",
                "is not valid (\(context.debugDescription))"
            )
        } catch {
            throw XCallbackHandlerError(code: "invalidParameter", message: "the parameters do not fit: \(error)")
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Keyed<Key>(parameters: parameters))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw XCallbackHandlerError(code: "invalidParameter", message: "the parameters are named, not a list")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw XCallbackHandlerError(code: "invalidParameter", message: "the parameters are named, not a single value")
    }

    /// The parameters by name; primitive requirements forward to the generic decode, which goes through
    /// ``ParameterValueDecoder`` so that conversions live in one place.
    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let parameters: [XCallbackRequest.Parameter]
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { parameters.compactMap { Key(stringValue: $0.name) } }

        func contains(_ key: Key) -> Bool { parameters.contains { $0.name == key.stringValue } }
        func decodeNil(forKey key: Key) throws -> Bool { !contains(key) }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try value(type, forKey: key) }

        private func value<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let values = parameters.filter { $0.name == key.stringValue }.map(\.value)
            guard !values.isEmpty else { throw XCallbackHandlerError.invalidParameter(key.stringValue, "is missing") }
            return try ParameterValueDecoder(name: key.stringValue, values: values).decodeValue(type)
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(type, forKey: key) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(type, forKey: key) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(type, forKey: key) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(type, forKey: key) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(type, forKey: key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(type, forKey: key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(type, forKey: key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(type, forKey: key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(type, forKey: key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(type, forKey: key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(type, forKey: key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(type, forKey: key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(type, forKey: key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(type, forKey: key) }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type,
            forKey key: Key
        ) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            throw XCallbackHandlerError.invalidParameter(key.stringValue, "cannot hold nested values")
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try ParameterValueDecoder(
                name: key.stringValue,
                values: parameters.filter { $0.name == key.stringValue }.map(\.value)
            ).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { XCallbackParameterDecoder(parameters: parameters) }
        func superDecoder(forKey key: Key) throws -> any Decoder {
            ParameterValueDecoder(
                name: key.stringValue,
                values: parameters.filter { $0.name == key.stringValue }.map(\.value)
            )
        }
    }
}
