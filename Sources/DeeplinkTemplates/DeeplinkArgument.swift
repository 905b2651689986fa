import Foundation

/// A type an argument of a template can be read as, and written back from (the inverse, for encoding URLs).
public protocol DeeplinkArgument {
    /// Reads the (percent-decoded) text of an argument; nil when it is not a valid value.
    init?(deeplinkArgument text: String)
    /// The text that reads back as this value.
    var deeplinkArgument: String { get }
}

extension String: DeeplinkArgument {
    public init?(deeplinkArgument text: String) { self = text }
    public var deeplinkArgument: String { self }
}

extension Int: DeeplinkArgument {
    public init?(deeplinkArgument text: String) { self.init(text) }
    public var deeplinkArgument: String { String(self) }
}

extension Double: DeeplinkArgument {
    public init?(deeplinkArgument text: String) { self.init(text) }
    public var deeplinkArgument: String { String(self) }
}

extension UUID: DeeplinkArgument {
    public init?(deeplinkArgument text: String) { self.init(uuidString: text) }
    public var deeplinkArgument: String { uuidString }
}

/// Booleans accept one documented set of spellings: `true`/`false` (any letter case) and `1`/`0`; anything else
/// (`yes`, `on`, `2`, empty) is an invalid argument, never silently false.
extension Bool: DeeplinkArgument {
    public init?(deeplinkArgument text: String) {
        switch text.lowercased() {
        case "true", "1": self = true
        case "false", "0": self = false
        default: return nil
        }
    }
    public var deeplinkArgument: String { self ? "true" : "false" }
}

/// Enums with string raw values are arguments by their raw value.
extension DeeplinkArgument where Self: RawRepresentable, RawValue == String {
    public init?(deeplinkArgument text: String) { self.init(rawValue: text) }
    public var deeplinkArgument: String { rawValue }
}

/// Types the center can create on its own when a registration gives no initial value.
public protocol DefaultInitializable {
    init()
}
