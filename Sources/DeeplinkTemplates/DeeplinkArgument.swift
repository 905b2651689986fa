import Foundation

/// A type an argument of a template can be read as, and written back from (the inverse, for encoding URLs).
public protocol DeeplinkArgument {
    /// Reads the (percent-decoded) text of an argument; nil when it is not a valid value.
    init?(deeplinkArgument text: String)
    /// The text that reads back as this value.
    var deeplinkArgument: String { get }
}

/// Any text, as it is once percent-decoded.
extension String: DeeplinkArgument {
    /// The text itself; never nil.
    public init?(deeplinkArgument text: String) { self = text }
    /// The text itself.
    public var deeplinkArgument: String { self }
}

/// Whole numbers in decimal (`42`, `-7`).
extension Int: DeeplinkArgument {
    /// The number, or nil for text that is not a whole number in decimal.
    public init?(deeplinkArgument text: String) { self.init(text) }
    /// The number in decimal.
    public var deeplinkArgument: String { String(self) }
}

/// Numbers as Swift reads them (`2.5`, `1e3`).
extension Double: DeeplinkArgument {
    /// The number, or nil for text that is not one.
    public init?(deeplinkArgument text: String) { self.init(text) }
    /// The number as Swift prints it, which reads back as the same value.
    public var deeplinkArgument: String { String(self) }
}

/// UUIDs in their 36-character form, in either letter case.
extension UUID: DeeplinkArgument {
    /// The UUID, or nil for text that is not one.
    public init?(deeplinkArgument text: String) { self.init(uuidString: text) }
    /// The upper-case 36-character form.
    public var deeplinkArgument: String { uuidString }
}

/// Booleans accept one documented set of spellings: `true`/`false` (any letter case) and `1`/`0`; anything else
/// (`yes`, `on`, `2`, empty) is an invalid argument, never silently false.
extension Bool: DeeplinkArgument {
    /// `true`, `false` (any letter case), `1` or `0`; nil for anything else.
    public init?(deeplinkArgument text: String) {
        switch text.lowercased() {
        case "true", "1": self = true
        case "false", "0": self = false
        default: return nil
        }
    }

    /// `true` or `false`.
    public var deeplinkArgument: String { self ? "true" : "false" }
}

/// Enums with string raw values are arguments by their raw value.
extension DeeplinkArgument where Self: RawRepresentable, RawValue == String {
    /// The case whose raw value is `text`, or nil when there is none.
    public init?(deeplinkArgument text: String) { self.init(rawValue: text) }
    /// The raw value.
    public var deeplinkArgument: String { rawValue }
}

/// Types the center can create on its own when a registration gives no initial value.
public protocol DefaultInitializable {
    /// The value arguments are written into before a URL is matched.
    init()
}
