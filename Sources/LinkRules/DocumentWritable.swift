/// A document described once, in one place, as the members it writes: both its JSON (``DocumentJSON``, the server's hot
/// path) and its `Encodable` conformance (any encoder: pretty JSON, a client's own) are made from that description,
/// so a new field is written once.
///
/// ```swift
/// extension Notice: DocumentWritable {
///     func writeDocumentMembers(to writer: inout some DocumentMemberWriter) {
///         writer.write("code", code)      // keys in ascending order
///         writer.write("message", message)
///     }
///     func encode(to encoder: any Encoder) throws { try encodeDocument(to: encoder) }
/// }
/// ```
public protocol DocumentWritable: Encodable {
    /// Writes the members of the object (not its braces), keys in ascending byte order, absent optional members
    /// left out.
    func writeDocumentMembers(to writer: inout some DocumentMemberWriter)
}

extension DocumentWritable {
    /// Encodes the members ``writeDocumentMembers(to:)`` gives into `encoder`: what a type's `encode(to:)` calls.
    public func encodeDocument(to encoder: any Encoder) throws {
        var writer = EncoderMemberWriter(container: encoder.container(keyedBy: DocumentKey.self))
        writeDocumentMembers(to: &writer)
        if let error = writer.error { throw error }
    }
}

/// Where a document's description writes its members (``DocumentJSON``, or an `Encoder`).
public protocol DocumentMemberWriter {
    /// A string member.
    mutating func write(_ key: StaticString, _ value: String)
    /// An integer member.
    mutating func write(_ key: StaticString, _ value: Int)
    /// A Boolean member.
    mutating func write(_ key: StaticString, _ value: Bool)
    /// A member whose value is `null`.
    mutating func writeNull(_ key: StaticString)
    /// An object member, described by the value itself.
    mutating func write(_ key: StaticString, _ value: some DocumentWritable)
    /// An array of objects.
    mutating func write(_ key: StaticString, _ values: [some DocumentWritable])
    /// An array of strings.
    mutating func write(_ key: StaticString, _ values: [String])
    /// A member written through its own `Encodable` conformance (for parts that are written rarely).
    mutating func write(_ key: StaticString, encodable value: some Encodable)
}

extension DocumentMemberWriter {
    /// A string member, left out when nil.
    public mutating func write(_ key: StaticString, _ value: String?) {
        if let value { write(key, value) }
    }

    /// An integer member, left out when nil.
    public mutating func write(_ key: StaticString, _ value: Int?) {
        if let value { write(key, value) }
    }

    /// A Boolean member, left out when nil.
    public mutating func write(_ key: StaticString, _ value: Bool?) {
        if let value { write(key, value) }
    }

    /// An object member, left out when nil.
    public mutating func write(_ key: StaticString, _ value: (some DocumentWritable)?) {
        if let value { write(key, value) }
    }

    /// An array of strings, left out when nil.
    public mutating func write(_ key: StaticString, _ values: [String]?) {
        if let values { write(key, values) }
    }

    /// A string member, `null` when nil.
    public mutating func writeOrNull(_ key: StaticString, _ value: String?) {
        if let value { write(key, value) } else { writeNull(key) }
    }
}

/// A document's member name.
struct DocumentKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ key: StaticString) {
        stringValue = key.description
    }

    init?(stringValue: String) {
        self.stringValue = stringValue
    }

    init?(intValue: Int) {
        nil
    }
}

/// A document's description written into an `Encoder`'s keyed container; the first error is kept and thrown by
/// ``DocumentWritable/encodeDocument(to:)``.
struct EncoderMemberWriter: DocumentMemberWriter {
    var container: KeyedEncodingContainer<DocumentKey>
    var error: (any Error)?

    private mutating func attempt(_ body: (inout KeyedEncodingContainer<DocumentKey>) throws -> Void) {
        guard error == nil else { return }
        do { try body(&container) } catch { self.error = error }
    }

    mutating func write(_ key: StaticString, _ value: String) {
        attempt { try $0.encode(value, forKey: DocumentKey(key)) }
    }
    mutating func write(_ key: StaticString, _ value: Int) {
        attempt { try $0.encode(value, forKey: DocumentKey(key)) }
    }
    mutating func write(_ key: StaticString, _ value: Bool) {
        attempt { try $0.encode(value, forKey: DocumentKey(key)) }
    }
    mutating func writeNull(_ key: StaticString) { attempt { try $0.encodeNil(forKey: DocumentKey(key)) } }
    mutating func write(_ key: StaticString, _ value: some DocumentWritable) {
        attempt { try $0.encode(value, forKey: DocumentKey(key)) }
    }
    mutating func write(_ key: StaticString, _ values: [some DocumentWritable]) {
        attempt { try $0.encode(values, forKey: DocumentKey(key)) }
    }
    mutating func write(_ key: StaticString, _ values: [String]) {
        attempt { try $0.encode(values, forKey: DocumentKey(key)) }
    }
    mutating func write(_ key: StaticString, encodable value: some Encodable) {
        attempt { try $0.encode(value, forKey: DocumentKey(key)) }
    }
}
