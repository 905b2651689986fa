import Foundation

/// One problem found in a manifest: what, where (JSON pointer and line:column) and how bad.
///
/// Checks that find many problems return `[Diagnostic]`; throwing is kept for "cannot continue" (see
/// ``ManifestError``). Tools print ``description`` as `file:line:column: error: message [pointer]`.
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How bad a problem is.
    public enum Severity: String, Sendable, Hashable, Codable {
        /// The element it names is disabled (or, for the whole file, nothing loads).
        case error
        /// The element loads; something looks wrong.
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
    /// The file the manifest came from, when known.
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

    /// `file:line:column: severity: message [pointer]`.
    public var description: String {
        var place = file ?? "<manifest>"
        if let position { place += ":\(position.line):\(position.column)" }
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
