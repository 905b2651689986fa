import Foundation

/// A deep-link template written as a string literal, with interpolated key paths where the URL carries values:
/// `try "/artist/\(\.slug)/\(\.id)" as Deeplink<Artist>`; literal-only templates are `Deeplink<Void>`.
///
/// Matching is pure and thread-safe: a template is an immutable value (key paths are immutable, hence
/// `@unchecked Sendable`), and parsing writes into a value the caller owns.
public struct Deeplink<Value>: @unchecked Sendable {
    enum Component {
        case literal(String)
        case argument(Slot<Value>)
    }

    let components: [Component]
    /// When set, only URLs with this scheme match (compared case-insensitively).
    public var scheme: String?
    /// When set, only URLs with this host match (compared case-insensitively; a custom scheme's empty host is "").
    public var host: String?

    init(components: [Component]) {
        self.components = components
    }

    /// Scopes the template to a scheme and/or host.
    public func scoped(scheme: String? = nil, host: String? = nil) -> Deeplink {
        var copy = self
        copy.scheme = scheme ?? self.scheme
        copy.host = host ?? self.host
        return copy
    }

    /// The template text (arguments shown as `{name}`), for messages.
    public var pattern: String {
        components.map { component in
            switch component {
            case .literal(let text): text
            case .argument(let slot): "{\(slot.name)}"
            }
        }.joined()
    }
}

/// How one interpolated key path reads and writes its value.
struct Slot<Value> {
    enum Extent {
        /// Up to the next literal, or at the end up to the next `/`, `?`, `#` or `&`.
        case segment
        /// Everything up to the next literal or the end.
        case rest
    }

    let name: String
    /// The property; a template binds each one once.
    let keyPath: AnyKeyPath
    let extent: Extent
    /// A list's separator as the template declares it; nil for a single value.
    var separator: String? = nil
    /// Writes the percent-decoded items (one for a single value); false when one does not read as its type.
    let write: (inout Value, [String]) -> Bool
    /// The items to write in a URL (one for a single value); nil when the property is nil.
    let read: (Value) -> [String]?

    /// Characters a list separator may be written with as it is: RFC 3986's unreserved characters and the
    /// delimiters that separate nothing in a path, a query or a fragment. Any other separator is written escaped.
    static var literalSeparatorCharacters: CharacterSet {
        CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$'()*,;:@")
    }

    /// Whether the list's separator is written literally (and only a literal one splits the list).
    var separatorIsLiteral: Bool {
        separator.map { !$0.isEmpty && $0.unicodeScalars.allSatisfy(Self.literalSeparatorCharacters.contains) }
            ?? false
    }

    /// The items of the text an argument has in a URL. A list whose separator is written literally splits on it
    /// before decoding, so an escaped separator (`%2C`) stays inside an item; any other list splits the decoded
    /// text.
    func items(_ raw: String) -> [String] {
        func decoded(_ text: some StringProtocol) -> String {
            String(text).removingPercentEncoding ?? String(text)
        }
        guard let separator else { return [decoded(raw)] }
        if raw.isEmpty { return [] }
        if separatorIsLiteral { return raw.components(separatedBy: separator).map(decoded) }
        return decoded(raw).components(separatedBy: separator)
    }
}

/// Builds a template from a string literal with interpolations.
public struct DeeplinkInterpolation<Value>: StringInterpolationProtocol {
    var components: [Deeplink<Value>.Component] = []

    /// Starts an empty template; the capacities are hints the compiler passes and are not needed here.
    public init(literalCapacity: Int, interpolationCount: Int) {}

    /// Appends literal text, merged with the literal before it so that each literal is matched as one piece.
    public mutating func appendLiteral(_ literal: String) {
        guard !literal.isEmpty else { return }
        if case .literal(let previous)? = components.last {
            components[components.count - 1] = .literal(previous + literal)
        } else {
            components.append(.literal(literal))
        }
    }

    private mutating func append(_ slot: Slot<Value>) throws(DeeplinkError) {
        if case .argument(let previous)? = components.last {
            throw DeeplinkError(
                .adjacentArguments,
                "the arguments {\(previous.name)} and {\(slot.name)} follow each other with no text between them, "
                    + "so where one ends cannot be known"
            )
        }
        for case .argument(let earlier) in components where earlier.keyPath == slot.keyPath {
            throw DeeplinkError(
                .repeatedArgument,
                "the argument {\(slot.name)} is bound twice in the template: a property is read from one place only"
            )
        }
        components.append(.argument(slot))
    }

    /// An optional string property: the original library's argument.
    public mutating func appendInterpolation(_ keyPath: WritableKeyPath<Value, String?>) throws(DeeplinkError) {
        try append(Self.textSlot(keyPath, extent: .segment))
    }

    /// A typed property (`Int?`, `UUID?`, `Bool?`, an enum): text that does not read as the type fails the match.
    public mutating func appendInterpolation<T: DeeplinkArgument>(
        _ keyPath: WritableKeyPath<Value, T?>
    ) throws(DeeplinkError) {
        try append(
            Slot(
                name: Self.name(of: keyPath),
                keyPath: keyPath,
                extent: .segment,
                write: { value, items in
                    guard let text = items.first, let parsed = T(deeplinkArgument: text) else { return false }
                    value[keyPath: keyPath] = parsed
                    return true
                },
                read: { $0[keyPath: keyPath].map { [$0.deeplinkArgument] } }
            )
        )
    }

    /// A catch-all argument: takes the rest of the URL (up to the next literal, if any), slashes included.
    public mutating func appendInterpolation(rest keyPath: WritableKeyPath<Value, String?>) throws(DeeplinkError) {
        try append(Self.textSlot(keyPath, extent: .rest))
    }

    /// The slot of a string property: the matched text as it is.
    private static func textSlot(
        _ keyPath: WritableKeyPath<Value, String?>,
        extent: Slot<Value>.Extent
    ) -> Slot<Value> {
        Slot(
            name: name(of: keyPath),
            keyPath: keyPath,
            extent: extent,
            write: {
                $0[keyPath: keyPath] = $1.first ?? ""
                return true
            },
            read: { $0[keyPath: keyPath].map { [$0] } }
        )
    }

    /// A list argument: one segment split on `separator` (`1,2,3` → `[1, 2, 3]`). A separator made of letters,
    /// digits and `-._~!$'()*,;:@` is written as it is when building a URL, and only that literal form splits the
    /// list, so an item may hold it escaped; any other separator is written escaped.
    public mutating func appendInterpolation<T: DeeplinkArgument>(
        list keyPath: WritableKeyPath<Value, [T]?>,
        separator: String = ","
    ) throws(DeeplinkError) {
        try append(
            Slot(
                name: Self.name(of: keyPath),
                keyPath: keyPath,
                extent: .segment,
                separator: separator,
                write: { value, items in
                    var parsed: [T] = []
                    for item in items {
                        guard let element = T(deeplinkArgument: item) else { return false }
                        parsed.append(element)
                    }
                    value[keyPath: keyPath] = parsed
                    return true
                },
                read: { $0[keyPath: keyPath]?.map(\.deeplinkArgument) }
            )
        )
    }

    static func name(of keyPath: AnyKeyPath) -> String {
        let text = String(describing: keyPath)
        return text.split(separator: ".").last.map(String.init) ?? text
    }
}

extension Deeplink: ExpressibleByStringLiteral, ExpressibleByUnicodeScalarLiteral,
    ExpressibleByExtendedGraphemeClusterLiteral
{
    /// A literal-only template: `"/sell/ticket" as Deeplink<Void>`.
    public init(stringLiteral value: String) {
        self.init(components: value.isEmpty ? [] : [.literal(value)])
    }
}

extension Deeplink: ExpressibleByStringInterpolation {
    /// A template with arguments: `try "/artist/\(\.slug)/\(\.id)" as Deeplink<Artist>`.
    public init(stringInterpolation: DeeplinkInterpolation<Value>) {
        self.init(components: stringInterpolation.components)
    }
}
