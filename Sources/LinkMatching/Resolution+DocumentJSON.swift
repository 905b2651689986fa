import LinkRules

// The resolution document, described once (keys in ascending order): its `Encodable` conformance and the server's
// direct JSON are both made from these descriptions (DocumentWritable); `DocumentJSONTests` checks the two write the
// same bytes.

extension Resolution: DocumentWritable {
    /// `input, notices (when not empty), openings, steps, timedOutRules, trace (when asked for), unwrapped`.
    package func writeDocumentMembers(to writer: inout DocumentMemberWriter) {
        writer.write("input", input)
        if !notices.isEmpty { writer.write("notices", notices) }
        writer.write("openings", openings)
        writer.write("steps", steps)
        writer.write("timedOutRules", timedOutRules.map(\.description))
        if let trace { writer.write("trace", encodable: trace) }
        writer.write("unwrapped", unwrapped)
    }

    /// Encodes the document described by `writeDocumentMembers(to:)`.
    public func encode(to encoder: any Encoder) throws {
        try encodeDocument(to: encoder)
    }
}

extension Opening: DocumentWritable {
    /// The flat opening: the app's fields beside the opening's own; `url` is an explicit null when absent, other
    /// missing fields (an empty scheme among them) are left out.
    package func writeDocumentMembers(to writer: inout DocumentMemberWriter) {
        // The app's members are written once per app (OpeningApp), between the opening's own in key order.
        if let app { writer.write(app.documentHead) }
        writer.write("canSave", canSave)
        writer.write("claim", claim)
        writer.write("error", error)
        if let app { writer.write(app.documentIcon) }
        writer.write("kind", kind.rawValue)
        writer.write("layer", layer?.rawValue)
        writer.write("needsScript", needsScript)
        writer.write("preferred", preferred)
        writer.write("rule", rule.description)
        if let app { writer.write(app.documentTail) }
        writer.write("title", title)
        writer.writeOrNull("url", url)
    }

    /// Encodes the opening described by `writeDocumentMembers(to:)`.
    public func encode(to encoder: any Encoder) throws {
        try encodeDocument(to: encoder)
    }
}

extension UnwrapStep: DocumentWritable {
    /// `details, from, kind, layer, location, refused, rule, to`, the absent ones left out.
    package func writeDocumentMembers(to writer: inout DocumentMemberWriter) {
        writer.write("details", details)
        writer.write("from", from)
        writer.write("kind", kind.rawValue)
        writer.write("layer", layer?.rawValue)
        writer.write("location", location?.description)
        writer.write("refused", refused)
        writer.write("rule", rule)
        writer.write("to", to)
    }

    /// Encodes the step described by `writeDocumentMembers(to:)`.
    public func encode(to encoder: any Encoder) throws {
        try encodeDocument(to: encoder)
    }
}

extension ResolutionNotice: DocumentWritable {
    /// `code, message`.
    package func writeDocumentMembers(to writer: inout DocumentMemberWriter) {
        writer.write("code", code)
        writer.write("message", message)
    }

    /// Encodes the notice described by `writeDocumentMembers(to:)`.
    public func encode(to encoder: any Encoder) throws {
        try encodeDocument(to: encoder)
    }
}

extension OpeningError: DocumentWritable {
    /// `code, message`.
    package func writeDocumentMembers(to writer: inout DocumentMemberWriter) {
        writer.write("code", code)
        writer.write("message", message)
    }

    /// Encodes the error described by `writeDocumentMembers(to:)`.
    public func encode(to encoder: any Encoder) throws {
        try encodeDocument(to: encoder)
    }
}

extension OpeningPreference: DocumentWritable {
    /// `by, reason`.
    package func writeDocumentMembers(to writer: inout DocumentMemberWriter) {
        writer.write("by", by.rawValue)
        writer.write("reason", reason)
    }

    /// Encodes the preference described by `writeDocumentMembers(to:)`.
    public func encode(to encoder: any Encoder) throws {
        try encodeDocument(to: encoder)
    }
}

extension OpeningClaim: DocumentWritable {
    /// `age, file, rule`.
    package func writeDocumentMembers(to writer: inout DocumentMemberWriter) {
        writer.write("age", age)
        writer.write("file", file)
        writer.write("rule", rule.description)
    }

    /// Encodes the claim described by `writeDocumentMembers(to:)`.
    public func encode(to encoder: any Encoder) throws {
        try encodeDocument(to: encoder)
    }
}
