import DeeplinkTemplates
import Foundation

/// One route of an app: a DeeplinkTemplates template, how to write a link it opens, and whether it opens a link.
public struct AssociationRoute: Sendable {
    /// The template's text, arguments as `{name}`.
    public let pattern: String
    /// The template's pieces.
    public let pieces: [DeeplinkPiece]
    private let example: @Sendable (_ host: String) -> String
    private let opens: @Sendable (URL) -> Bool

    /// A route from a template and a value its links carry (the contract writes that value's link to check that the
    /// published file claims it).
    public init<Value: Sendable>(_ deeplink: Deeplink<Value>, example value: Value) {
        self.init(deeplink, example: value, pattern: deeplink.pattern)
    }

    private init<Value: Sendable>(_ deeplink: Deeplink<Value>, example value: Value, pattern: String) {
        self.pattern = pattern
        pieces = deeplink.pieces
        example = { host in deeplink.url(for: value, host: host) }
        opens = { url in deeplink.matches(url, startingWith: value) }
    }

    /// A route from its text: literal text, `{name}` for an argument of one segment and `{name...}` for one that
    /// takes the rest (`/artist/{slug}/{id}`, `/files/{path...}`, `/search?q={query}`). Its example link fills each
    /// argument with `a1`.
    public init(_ text: String) throws(AssociationContractError) {
        var interpolation = DeeplinkInterpolation<RouteValues>(literalCapacity: text.count, interpolationCount: 0)
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            interpolation.appendLiteral(String(rest[..<open]))
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw AssociationContractError(route: text, message: "a \"{\" is not closed")
            }
            var name = String(rest[rest.index(after: open)..<close])
            let takesRest = name.hasSuffix("...")
            if takesRest { name.removeLast(3) }
            guard !name.isEmpty else { throw AssociationContractError(route: text, message: "an argument has no name") }
            do {
                if takesRest {
                    try interpolation.appendInterpolation(rest: \RouteValues.[name])
                } else {
                    try interpolation.appendInterpolation(\RouteValues.[name])
                }
            } catch {
                throw AssociationContractError(route: text, message: error.description)
            }
            rest = rest[rest.index(after: close)...]
        }
        interpolation.appendLiteral(String(rest))
        let deeplink = Deeplink<RouteValues>(stringInterpolation: interpolation)
        // The route's own text names it: a subscript key path has no readable name of its own.
        self.init(deeplink, example: RouteValues(filler: "a1"), pattern: text)
    }

    /// The link this route opens for its example value, on `host`.
    public func exampleURL(host: String) -> String { example(host) }

    /// Whether the route opens `url`.
    public func opens(_ url: URL) -> Bool { opens(url) }
}

/// The values of a route written as text: every argument by name, `filler` for any not set.
struct RouteValues: Sendable {
    var values: [String: String] = [:]
    let filler: String

    init(filler: String) {
        self.filler = filler
    }

    subscript(name: String) -> String? {
        get { values[name] ?? filler }
        set { values[name] = newValue }
    }
}

/// A route that cannot be read, and why.
public struct AssociationContractError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The route's text.
    public var route: String
    /// What is wrong with it.
    public var message: String

    /// Creates an error.
    public init(route: String, message: String) {
        self.route = route
        self.message = message
    }

    /// `route "…": message`.
    public var description: String { "route \"\(route)\": \(message)" }
}
