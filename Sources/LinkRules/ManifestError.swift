/// Why a manifest could not be loaded at all (as opposed to the `Diagnostic`s of single entries).
public struct ManifestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure.
    public enum Code: String, Sendable {
        case unreadable = "E_READ"
        case syntax = "E_JSON_SYNTAX"
        case encoding = "E_ENCODING"
        case depth = "E_JSON_DEPTH"
        case tooLarge = "E_TOO_LARGE"
        case notAManifest = "E_NOT_MANIFEST"
        case notAUserLayer = "E_NOT_USER_LAYER"
        case unsupportedVersion = "E_VERSION"
    }

    /// What kind of failure.
    public var code: Code
    /// One sentence saying what is wrong.
    public var message: String
    /// The file, when known.
    public var file: String?
    /// Where in the file, when known.
    public var position: SourcePosition?

    /// Creates an error.
    public init(code: Code, message: String, file: String? = nil, position: SourcePosition? = nil) {
        self.code = code
        self.message = message
        self.file = file
        self.position = position
    }

    /// `file:line:column: error: message [CODE]`, the one form of every located error (`lint`'s too); a file that
    /// cannot be read is said as every unusable file the user names is, `PATH: error: the manifest does not exist`,
    /// without a code.
    public var description: String {
        var place = file ?? "<manifest>"
        if code == .unreadable, position == nil { return "\(place): error: \(message)" }
        if let position { place += ":\(position.line):\(position.column)" }
        return "\(place): error: \(message) [\(code.rawValue)]"
    }
}

/// Size limits applied while loading, so that hostile rule sets cannot exhaust memory or time.
public struct ManifestLimits: Sendable, Equatable {
    /// The largest manifest file accepted (the real v5 manifest is 0.6 MB).
    public var maximumBytes: Int = 16 * 1024 * 1024
    /// The longest regex accepted (the longest real one has 699 characters).
    public var maximumRegexLength: Int = 4096
    /// The longest script accepted (the longest real one has 1,216 characters).
    public var maximumScriptLength: Int = 65536
    /// The most actions accepted.
    public var maximumActions: Int = 20000

    /// The default limits.
    public init() {}
}
