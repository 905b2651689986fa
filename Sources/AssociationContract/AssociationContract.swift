import DeeplinkTemplates
import DomainClaims
import Foundation
import WebLinks

/// The association contract of an app: which links of its domain its routes open, written as the AASA components
/// (and Android intent-filter paths) that claim them, and checked against a published file both ways.
///
/// AASA patterns cannot say "one path segment": `*` also takes `/`. A route's argument of one segment is therefore
/// written `*`, and the component claims more than the route opens (`/artist/*` also claims `/artist/a/b`); such
/// components are marked ``GeneratedComponent/isExact`` false, and ``check(_:)`` reports the links they claim that
/// no route opens.
public struct AssociationContract: Sendable {
    /// The app the file must claim the links for.
    public let appID: String
    /// The domain the file is served on.
    public let domain: String
    /// The app's routes.
    public let routes: [AssociationRoute]

    /// A contract.
    public init(appID: String, domain: String, routes: [AssociationRoute]) {
        self.appID = appID
        self.domain = domain
        self.routes = routes
    }

    /// One component written for a route.
    public struct GeneratedComponent: Sendable, Equatable, Codable {
        /// The route it claims.
        public var route: String
        /// The path pattern.
        public var path: String
        /// Query items by name (values as patterns), when the route has a query.
        public var query: [String: String]?
        /// The fragment pattern, when the route has one.
        public var fragment: String?
        /// Whether it claims exactly the route's links (false: an argument of one segment, an argument as a query
        /// item's name, a `*`, `?` or `$(` in the route's text, or a query or fragment the route needs but AASA reads
        /// as empty when absent).
        public var isExact: Bool
    }

    /// The components that claim the routes, in route order.
    public func components() -> [GeneratedComponent] {
        routes.map(ComponentWriter.component)
    }

    /// A whole apple-app-site-association file claiming the routes for the app (pretty JSON, keys in Apple's order).
    public func associationFile() -> String {
        var items: [String] = []
        for component in components() {
            var fields = ["\"/\": \(Self.quoted(component.path))"]
            if let query = component.query {
                let pairs = query.sorted { $0.key < $1.key }.map { "\(Self.quoted($0.key)): \(Self.quoted($0.value))" }
                fields.append("\"?\": {\(pairs.joined(separator: ", "))}")
            }
            if let fragment = component.fragment { fields.append("\"#\": \(Self.quoted(fragment))") }
            fields.append("\"comment\": \(Self.quoted("route " + component.route))")
            items.append("    {" + fields.joined(separator: ", ") + "}")
        }
        return """
            {"applinks": {"details": [{
              "appIDs": [\(Self.quoted(appID))],
              "components": [
            \(items.joined(separator: ",\n"))
              ]}]}}

            """
    }

    /// The `<data>` elements of an Android intent filter that accept the routes' paths on the domain.
    public func intentFilterPaths() -> [IntentFilterPath] {
        routes.map { IntentFilterPath(route: $0) }
    }

    private static func quoted(_ text: String) -> String {
        var output = ""
        JSONWriter.appendQuoted(text, to: &output)
        return output
    }
}
