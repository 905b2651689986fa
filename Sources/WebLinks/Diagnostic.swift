/// One problem found in a JSON document (a manifest, a user layer, a cleaning catalog, an apple-app-site-association
/// or assetlinks.json file): what, where (``JSONPointer`` and ``SourcePosition``) and how bad. The one diagnostic type
/// of every document format, beside the pointer and the position it names.
///
/// Checks that find many problems return `[Diagnostic]`; throwing is kept for "cannot continue" (LinkRules'
/// `ManifestError`). A document read as its platform reads it never fails on a legal file with odd parts: the part is
/// read as the platform does and a diagnostic says so. Tools print ``description`` (or ``description(file:)``) as
/// `file:line:column: error: message [CODE at /pointer]`.
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How bad a problem is.
    public enum Severity: String, Sendable, Hashable, Codable {
        /// The element it names is disabled or claims nothing (or, for the whole file, nothing loads).
        case error
        /// The element loads, or is read or ignored as the platform's reader does; it probably does not do what was
        /// meant.
        case warning
    }

    /// How bad it is.
    public var severity: Severity
    /// A stable code such as `E_UNKNOWN_APP` or `W_UNKNOWN_KEY`.
    public var code: String
    /// One sentence naming the value and, when known, the fix.
    public var message: String
    /// The JSON pointer (RFC 6901) of the element, e.g. `/actions/3/formats/0/appId`.
    public var pointer: String
    /// Where the element starts in the source, when known.
    public var position: SourcePosition?
    /// The file the document came from, when known.
    public var file: String?

    /// Creates a diagnostic.
    public init(
        _ severity: Severity,
        _ code: String,
        _ message: String,
        at pointer: JSONPointer,
        position: SourcePosition? = nil,
        file: String? = nil
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.pointer = pointer.description
        self.position = position
        self.file = file
    }

    /// `file:line:column: severity: message [CODE at /pointer]`, the file being ``file`` (`<manifest>` when unknown).
    public var description: String { description(file: file ?? "<manifest>") }

    /// `file:line:column: severity: message [CODE at /pointer]` for the document in `file` (no `line:column` when
    /// the position is unknown).
    public func description(file: String) -> String {
        var place = file
        if let position, position.line > 0 { place += ":\(position.line):\(position.column)" }
        return "\(place): \(severity.rawValue): \(message) [\(code) at \(pointer.isEmpty ? "/" : pointer)]"
    }
}

extension Diagnostic {
    /// `diagnostics` in file order (by offset; those without a position last), keeping the given order among equals:
    /// a maintainer reads them top to bottom next to the file. The one ordering the loaders, the compiler, the user
    /// layer and `lint` use.
    public static func inFileOrder(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { lhs, rhs in
            let left = lhs.element.position?.offset ?? Int.max
            let right = rhs.element.position?.offset ?? Int.max
            return left == right ? lhs.offset < rhs.offset : left < right
        }.map(\.element)
    }
}
