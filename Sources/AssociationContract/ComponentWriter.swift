import DeeplinkTemplates
import Foundation

/// Writes a route as an AASA component: its literal text as itself and each argument as `*`.
enum ComponentWriter {
    /// A part of a route's text, split at its first `?` and `#`: literal text, or an argument.
    enum Token: Equatable {
        case text(String)
        case argument(takesRest: Bool)
    }

    /// The route's path, query and fragment tokens (the query and fragment nil when it has none).
    static func sections(_ pieces: [DeeplinkPiece]) -> (path: [Token], query: [Token]?, fragment: [Token]?) {
        var path: [Token] = []
        var query: [Token]?
        var fragment: [Token]?
        func add(_ token: Token) {
            if fragment != nil {
                fragment?.append(token)
            } else if query != nil {
                query?.append(token)
            } else {
                path.append(token)
            }
        }
        for piece in pieces {
            switch piece {
            case .argument(_, let takesRest): add(.argument(takesRest: takesRest))
            case .literal(var text):
                while let marker = text.firstIndex(where: {
                    ($0 == "?" && query == nil && fragment == nil) || ($0 == "#" && fragment == nil)
                }) {
                    if marker > text.startIndex { add(.text(String(text[..<marker]))) }
                    if text[marker] == "?" { query = [] } else { fragment = [] }
                    text = String(text[text.index(after: marker)...])
                }
                if !text.isEmpty { add(.text(text)) }
            }
        }
        return (path, query, fragment)
    }

    static func component(_ route: AssociationRoute) -> AssociationContract.GeneratedComponent {
        let (path, query, fragment) = sections(route.pieces)
        var exact = true
        func pattern(_ tokens: [Token]) -> String {
            tokens.map { token in
                switch token {
                case .text(let text):
                    // AASA has no escape: these would be read as wildcards or a variable.
                    if text.contains("*") || text.contains("?") || text.contains("$(") { exact = false }
                    return text
                case .argument(let takesRest):
                    if !takesRest { exact = false }
                    return "*"
                }
            }.joined()
        }
        var items: [String: String]?
        if let query {
            // Route queries are name=value pairs; a name that is an argument cannot be written as an item's name.
            items = [:]
            var pairs: [[Token]] = [[]]
            for token in query {
                guard case .text(let text) = token else {
                    pairs[pairs.count - 1].append(token)
                    continue
                }
                let parts = text.split(separator: "&", omittingEmptySubsequences: false)
                for (index, part) in parts.enumerated() {
                    if index > 0 { pairs.append([]) }
                    if !part.isEmpty { pairs[pairs.count - 1].append(.text(String(part))) }
                }
            }
            for pair in pairs where !pair.isEmpty {
                guard case .text(let first) = pair[0], let equals = first.firstIndex(of: "=") else {
                    exact = false
                    continue
                }
                let value = [Token.text(String(first[first.index(after: equals)...]))] + pair.dropFirst()
                items?[String(first[..<equals])] = pattern(value.filter { $0 != .text("") })
            }
            // A route with a query needs the link to have one; AASA reads a missing item as empty.
            exact = false
        }
        if fragment != nil { exact = false }
        let pathPattern = pattern(path)
        return AssociationContract.GeneratedComponent(
            route: route.pattern,
            path: pathPattern.isEmpty ? "/" : pathPattern,
            query: items,
            fragment: fragment.map(pattern),
            isExact: exact
        )
    }
}

/// One `<data>` element of an Android intent filter for a route: `android:path` for a route without arguments,
/// `android:pathPrefix` for one whose only argument takes the rest at its end, `android:pathPattern` otherwise
/// (arguments as `.*`, which Android never backtracks over: it stops at the next literal character).
public struct IntentFilterPath: Sendable, Equatable, Codable {
    /// The route.
    public var route: String
    /// `android:path`, `android:pathPrefix` or `android:pathPattern`.
    public var attribute: String
    /// The attribute's value.
    public var value: String

    init(route: AssociationRoute) {
        self.route = route.pattern
        let path = ComponentWriter.sections(route.pieces).path
        let arguments = path.filter { if case .argument = $0 { true } else { false } }
        if arguments.isEmpty {
            attribute = "android:path"
            value = path.map { if case .text(let text) = $0 { text } else { "" } }.joined()
        } else if arguments.count == 1, path.last == .argument(takesRest: true) {
            attribute = "android:pathPrefix"
            value = path.dropLast().map { if case .text(let text) = $0 { text } else { "" } }.joined()
        } else {
            attribute = "android:pathPattern"
            value = path.map { token in
                switch token {
                case .argument: ".*"
                case .text(let text):
                    // pathPattern's own special characters, escaped as Android reads them (a backslash, doubled in XML).
                    text.replacingOccurrences(of: "\\", with: "\\\\\\\\").replacingOccurrences(of: ".", with: "\\\\.")
                        .replacingOccurrences(of: "*", with: "\\\\*")
                }
            }.joined()
        }
    }

    /// `<data android:scheme="https" android:host="HOST" ATTRIBUTE="VALUE" />`.
    public func xml(host: String) -> String {
        func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
                .replacingOccurrences(of: "<", with: "&lt;")
        }
        return "<data android:scheme=\"https\" android:host=\"\(escaped(host))\" \(attribute)=\"\(escaped(value))\" />"
    }
}
