/// A parsed JSON value that remembers where it came from and keeps object members in file order.
///
/// Foundation's `JSONSerialization` loses both: member order matters for Opener's redirect rules (they apply in
/// file order) and positions make every diagnostic point at `line:column`.
public struct JSONNode: Sendable, Equatable {
    /// The kinds of JSON value.
    public enum Value: Sendable, Equatable {
        case null
        case bool(Bool)
        /// A number, kept as its literal text so that range checks never trap (`12345678901234567890`, `1.5`).
        case number(String)
        case string(String)
        case array([JSONNode])
        case object([JSONMember])
    }

    /// The value.
    public var value: Value
    /// Where the value starts.
    public var position: SourcePosition

    /// Creates a node.
    public init(_ value: Value, at position: SourcePosition) {
        self.value = value
        self.position = position
    }

    /// The member named `key` when this is an object (the first one if the key repeats).
    public subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The position of the element at `pointer` (for a member, where its value starts), or nil when absent.
    public func position(of pointer: JSONPointer) -> SourcePosition? {
        var node = self
        for token in pointer.tokens {
            switch node.value {
            case .object(let members):
                guard let member = members.first(where: { $0.key == token }) else { return nil }
                node = member.value
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index) else { return nil }
                node = elements[index]
            default:
                return nil
            }
        }
        return node.position
    }

    /// The string value, if this is a string.
    public var stringValue: String? {
        if case .string(let string) = value { return string }
        return nil
    }

    /// The members, if this is an object.
    public var members: [JSONMember]? {
        if case .object(let members) = value { return members }
        return nil
    }

    /// The elements, if this is an array.
    public var elements: [JSONNode]? {
        if case .array(let elements) = value { return elements }
        return nil
    }

    /// A short name of the value's type for messages ("a string", "an array", …).
    public var typeDescription: String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// One `"key": value` pair of a JSON object.
public struct JSONMember: Sendable, Equatable {
    /// The key.
    public var key: String
    /// Where the key starts.
    public var keyPosition: SourcePosition
    /// The value.
    public var value: JSONNode

    /// Creates a member.
    public init(key: String, keyPosition: SourcePosition, value: JSONNode) {
        self.key = key
        self.keyPosition = keyPosition
        self.value = value
    }
}
