import WebLinks

/// One thing worth saying about an AASA or asset-links file: what, where (JSON pointer and line:column) and how bad.
///
/// Reading never fails on a legal file with odd parts: the part is read as Apple's or Google's matcher reads it (a
/// query dictionary with a value that is not a string is ignored as a whole, a malformed statement is skipped) and a
/// diagnostic says so. Tools print ``description(file:)`` as `file:line:column: warning: message [CODE at /pointer]`.
public struct ClaimsDiagnostic: Sendable, Hashable, Codable {
    /// How bad a problem is.
    public enum Severity: String, Sendable, Hashable, Codable {
        /// The file (or the part named) claims nothing.
        case error
        /// The part is read, or ignored, as the platform's matcher does; it probably does not do what was meant.
        case warning
    }

    /// How bad it is.
    public var severity: Severity
    /// A stable code such as `W_NOT_STRING` or `W_UNREACHABLE`.
    public var code: String
    /// One sentence naming the value and, when known, the fix.
    public var message: String
    /// The JSON pointer (RFC 6901) of the element, e.g. `/applinks/details/0/components/3`.
    public var pointer: String
    /// Where the element starts in the file, when known.
    public var position: SourcePosition?

    /// Creates a diagnostic.
    public init(
        _ severity: Severity,
        _ code: String,
        _ message: String,
        at pointer: JSONPointer,
        position: SourcePosition? = nil
    ) {
        self.severity = severity
        self.code = code
        self.message = message
        self.pointer = pointer.description
        self.position = position
    }

    /// `file:line:column: severity: message [CODE at /pointer]` (no `line:column` when the position is unknown).
    public func description(file: String) -> String {
        var place = file
        if let position, position.line > 0 { place += ":\(position.line):\(position.column)" }
        return "\(place): \(severity.rawValue): \(message) [\(code) at \(pointer.isEmpty ? "/" : pointer)]"
    }
}

/// Why a domain-association file could not be read at all, and where.
public struct DomainClaimsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Sendable, Equatable {
        /// Not JSON (syntax), or not UTF-8.
        case invalidJSON = "E_JSON"
        /// The document is JSON but not the shape the format needs at its top (an object for AASA, an array of
        /// statements for asset links).
        case notADocument = "E_NOT_A_DOCUMENT"
    }

    /// The kind of failure.
    public var code: Code
    /// One sentence: what was wrong.
    public var message: String
    /// Where, when known.
    public var position: SourcePosition?

    /// Creates an error.
    public init(code: Code, message: String, position: SourcePosition? = nil) {
        self.code = code
        self.message = message
        self.position = position
    }

    /// `line:column: message` (just the message when the position is unknown).
    public var description: String { position.map { "\($0): \(message)" } ?? message }

    /// The error as the diagnostic `lint --aasa` reports it, at the file's root: every command prints a file that
    /// cannot be read in this one form (`FILE:LINE:COLUMN: error: message [CODE at /]`).
    public var diagnostic: ClaimsDiagnostic {
        ClaimsDiagnostic(.error, code.rawValue, message, at: .root, position: position)
    }

    /// The JSON tree of `bytes`, or the reader's error at its place.
    static func parse(_ bytes: [UInt8]) throws(DomainClaimsError) -> JSONNode {
        do {
            return try JSONReader().parse(bytes)
        } catch {
            throw DomainClaimsError(
                code: .invalidJSON,
                message: "invalid JSON: \(error.message)",
                position: error.position
            )
        }
    }
}

extension JSONNode {
    /// The value of the last member named `key` (as Foundation's `JSONSerialization`, which Apple's and Google's
    /// readers use, keeps the last of repeated keys), with its pointer.
    func lastMember(_ key: String) -> JSONNode? {
        members?.last { $0.key == key }?.value
    }

    /// The members of an object with repeated keys dropped but the last (in file order of the ones kept), in linear
    /// time: a file with thousands of keys costs no more than reading it.
    static func lastOfEachKey(_ members: [JSONMember]) -> [JSONMember] {
        var last: [String: Int] = [:]
        for (index, member) in members.enumerated() { last[member.key] = index }
        return members.enumerated().filter { last[$0.element.key] == $0.offset }.map(\.element)
    }

    /// A JSON boolean as Foundation reads it into `NSNumber.boolValue`: `true`/`false`, or a number (0 is false);
    /// nil for any other type.
    var booleanValue: Bool? {
        switch value {
        case .bool(let flag): return flag
        case .number(let literal): return Double(literal).map { $0 != 0 } ?? true
        default: return nil
        }
    }
}
