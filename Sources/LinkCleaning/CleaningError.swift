import LinkRules

/// The one error type of `LinkCleaning`: why a catalog cannot be used at all, in one sentence naming the place.
///
/// Problems with single providers or regexes do not throw: they are ``CleaningCatalog/diagnostics`` and the rest of
/// the catalog is used.
public struct CleaningError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure, stable enough to test against.
    public enum Code: String, Sendable, Hashable, Codable {
        /// The text is not JSON (the diagnostic gives line:column).
        case invalidJSON = "E_JSON_SYNTAX"
        /// The JSON is not a catalog: no `providers` object.
        case invalidCatalog = "E_CATALOG"
        /// The published hash is not 64 hexadecimal digits.
        case invalidHash = "E_HASH_FORMAT"
        /// The catalog's SHA-256 differs from the published hash.
        case hashMismatch = "E_HASH_MISMATCH"
        /// The catalog or its hash could not be read or downloaded.
        case unavailable = "E_CATALOG_UNAVAILABLE"
    }

    /// The kind of failure.
    public var code: Code
    /// One sentence: what failed, where, and the fix when known.
    public var message: String
    /// The located problems behind it (file, JSON pointer, line:column), when there are any.
    public var diagnostics: [Diagnostic]

    /// Creates an error.
    public init(_ code: Code, _ message: String, diagnostics: [Diagnostic] = []) {
        self.code = code
        self.message = message
        self.diagnostics = diagnostics
    }

    /// The message.
    public var description: String { message }
}
