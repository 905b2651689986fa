import WebLinks

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
    public var diagnostic: Diagnostic {
        Diagnostic(.error, code.rawValue, message, at: .root, position: position)
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
    package func lastMember(_ key: String) -> JSONNode? {
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
