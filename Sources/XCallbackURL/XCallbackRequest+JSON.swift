/// The JSON form shared by `switchyard xcallback parse --json` and the HTTP API:
/// `{"scheme", "action", "source", "success", "error", "cancel", "parameters": [{"name", "value"}]}`.
///
/// Parameters are an array of `{"name", "value"}` objects, not a JSON object, so their order and repeated names
/// survive; a parameter written without `=` has `"value": null`. Absent callbacks are omitted.
extension XCallbackRequest: Encodable {
    private enum CodingKeys: String, CodingKey {
        case scheme, action, source, success, error, cancel, parameters
    }

    /// Encodes the JSON form.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scheme, forKey: .scheme)
        try container.encode(action, forKey: .action)
        try container.encodeIfPresent(source, forKey: .source)
        try container.encodeIfPresent(success, forKey: .success)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encodeIfPresent(cancel, forKey: .cancel)
        try container.encode(parameters, forKey: .parameters)
    }
}

/// `{"name": …, "value": … | null}`.
extension XCallbackRequest.Parameter: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, value
    }

    /// Encodes `{"name", "value"}`, writing `null` for a parameter without `=`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(value, forKey: .value)
    }

    /// Decodes `{"name", "value"}`; a missing value reads as null.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            try container.decode(String.self, forKey: .name),
            try container.decodeIfPresent(String.self, forKey: .value)
        )
    }
}
