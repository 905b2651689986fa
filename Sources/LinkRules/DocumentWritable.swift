/// A document described once, in one place, as the members it writes: both its JSON (``DocumentJSON``, the server's hot
/// path) and its `Encodable` conformance (any encoder: pretty JSON, a client's own) are made from that description,
/// so a new field is written once.
///
/// ```swift
/// extension Notice: DocumentWritable {
///     func writeDocumentMembers(to writer: inout DocumentMemberWriter) {
///         writer.write("code", code)      // keys in ascending order
///         writer.write("message", message)
///     }
///     func encode(to encoder: any Encoder) throws { try encodeDocument(to: encoder) }
/// }
/// ```
package protocol DocumentWritable: Encodable {
    /// Writes the members of the object (not its braces), keys in ascending byte order, absent optional members
    /// left out.
    func writeDocumentMembers(to writer: inout DocumentMemberWriter)
}

extension DocumentWritable {
    /// Encodes the members ``writeDocumentMembers(to:)`` gives into `encoder`: what a type's `encode(to:)` calls.
    package func encodeDocument(to encoder: any Encoder) throws {
        let target = DocumentEncodingTarget(container: encoder.container(keyedBy: DocumentKey.self))
        var writer = DocumentMemberWriter(encodingInto: target)
        writeDocumentMembers(to: &writer)
        if let error = target.error { throw error }
    }
}

/// Where a document's description writes its members: a ``DocumentJSON`` text (the server's hot path), or an
/// `Encoder`'s keyed container (``DocumentWritable/encodeDocument(to:)``).
///
/// A concrete type rather than a protocol, so that a description is compiled once for both and the hot path needs
/// no generic metadata at run time: a description written over a generic writer cost about a tenth of a warm
/// request in the service benchmark (`_swift_getGenericMetadata` for each member, across modules).
package struct DocumentMemberWriter {
    /// The text written so far, when writing JSON directly.
    package var json: DocumentJSON
    /// The encoder's container, when writing through `Encodable`.
    @usableFromInline let encoding: DocumentEncodingTarget?

    /// A writer that appends to `json`.
    package init(json: DocumentJSON = DocumentJSON()) {
        self.json = json
        encoding = nil
    }

    init(encodingInto target: DocumentEncodingTarget) {
        json = DocumentJSON(capacity: 0)
        encoding = target
    }

    /// A string member.
    package mutating func write(_ key: StaticString, _ value: String) {
        if let encoding { return encoding.encode(value, key) }
        json.key(key)
        json.string(value)
    }

    /// An integer member.
    package mutating func write(_ key: StaticString, _ value: Int) {
        if let encoding { return encoding.encode(value, key) }
        json.key(key)
        json.int(value)
    }

    /// A Boolean member.
    package mutating func write(_ key: StaticString, _ value: Bool) {
        if let encoding { return encoding.encode(value, key) }
        json.key(key)
        json.bool(value)
    }

    /// A member whose value is `null`.
    package mutating func writeNull(_ key: StaticString) {
        if let encoding { return encoding.encodeNull(key) }
        json.key(key)
        json.null()
    }

    /// An object member, described by the value itself.
    @inlinable
    package mutating func write<Value: DocumentWritable>(_ key: StaticString, _ value: Value) {
        if let encoding { return encoding.encode(value, key) }
        json.key(key)
        json.openObject()
        value.writeDocumentMembers(to: &self)
        json.closeObject()
    }

    /// An array of objects.
    @inlinable
    package mutating func write<Value: DocumentWritable>(_ key: StaticString, _ values: [Value]) {
        if let encoding { return encoding.encode(values, key) }
        json.key(key)
        json.openArray()
        for value in values {
            json.element()
            json.openObject()
            value.writeDocumentMembers(to: &self)
            json.closeObject()
        }
        json.closeArray()
    }

    /// An array of strings.
    package mutating func write(_ key: StaticString, _ values: [String]) {
        if let encoding { return encoding.encode(values, key) }
        json.key(key)
        json.array(values) { $1.string($0) }
    }

    /// A member written through its own `Encodable` conformance (for parts that are written rarely, such as an
    /// explanation's trace): in JSON, as `JSONEncoder` writes the value with the documents' settings.
    package mutating func write(_ key: StaticString, encodable value: some Encodable) {
        if let encoding { return encoding.encode(value, key) }
        json.key(key)
        json.encoded(value)
    }

    /// A string member, left out when nil.
    package mutating func write(_ key: StaticString, _ value: String?) {
        if let value { write(key, value) }
    }

    /// An integer member, left out when nil.
    package mutating func write(_ key: StaticString, _ value: Int?) {
        if let value { write(key, value) }
    }

    /// A Boolean member, left out when nil.
    package mutating func write(_ key: StaticString, _ value: Bool?) {
        if let value { write(key, value) }
    }

    /// An object member, left out when nil.
    @inlinable
    package mutating func write<Value: DocumentWritable>(_ key: StaticString, _ value: Value?) {
        if let value { write(key, value) }
    }

    /// An array of strings, left out when nil.
    package mutating func write(_ key: StaticString, _ values: [String]?) {
        if let values { write(key, values) }
    }

    /// A string member, `null` when nil.
    package mutating func writeOrNull(_ key: StaticString, _ value: String?) {
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
/// ``DocumentWritable/encodeDocument(to:)``. A class, so that a writer holding it stays a plain value.
@usableFromInline
final class DocumentEncodingTarget {
    var container: KeyedEncodingContainer<DocumentKey>
    var error: (any Error)?

    init(container: KeyedEncodingContainer<DocumentKey>) {
        self.container = container
    }

    @usableFromInline
    func encode(_ value: some Encodable, _ key: StaticString) {
        guard error == nil else { return }
        do { try container.encode(value, forKey: DocumentKey(key)) } catch { self.error = error }
    }

    func encodeNull(_ key: StaticString) {
        guard error == nil else { return }
        do { try container.encodeNil(forKey: DocumentKey(key)) } catch { self.error = error }
    }
}

/// Members written once as JSON text, for a value whose members are the same in every document it appears in (an
/// app's fields, in each of the fifty openings of a resolution): ``DocumentMemberWriter/write(_:)`` appends the text
/// instead of escaping each string again; through `Encodable` the members are written one by one, as `write` says.
package struct PrewrittenMembers: Sendable {
    /// `"a":…,"b":…`, or nothing when `write` writes no member.
    let text: [UInt8]
    let write: @Sendable (inout DocumentMemberWriter) -> Void

    /// Members as `write` writes them (keys in sorted order, as any member list).
    package init(_ write: @escaping @Sendable (inout DocumentMemberWriter) -> Void) {
        var writer = DocumentMemberWriter(json: DocumentJSON(capacity: 128))
        writer.json.openObject()
        write(&writer)
        text = Array(writer.json.bytes.dropFirst())
        self.write = write
    }
}

extension DocumentMemberWriter {
    /// Members written ahead of time.
    package mutating func write(_ members: PrewrittenMembers) {
        if encoding != nil { return members.write(&self) }
        json.members(members.text)
    }
}
