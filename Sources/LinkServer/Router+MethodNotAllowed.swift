import HTTPTypes
import Hummingbird

extension Router {
    /// Answers, on every path registered so far, each of `methods` that the path does not handle with `405` and
    /// `Allow` listing the ones it does: the table is read from the router's routes, so call this after the last
    /// route is added.
    func addMethodNotAllowed(for methods: [HTTPRequest.Method] = [.get, .post, .put, .delete, .patch]) {
        let allowedByPath = Dictionary(grouping: routes, by: \.path.description)
        for (path, routes) in allowedByPath {
            let allowed = routes.map(\.method)
            let accepted = allowed.map(\.rawValue).joined(separator: " or ")
            for method in methods where !allowed.contains(method) {
                on(routes[0].path, method: method) { _, _ -> Response in
                    throw APIError(
                        .methodNotAllowed,
                        "E_METHOD",
                        "\(method.rawValue) is not allowed on \(path); use \(accepted)",
                        allowedMethods: allowed
                    )
                }
            }
        }
    }
}
