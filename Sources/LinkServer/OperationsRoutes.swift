import Foundation
import Hummingbird
import LinkMatching
import NIOCore

/// `GET /healthz` and `GET /metrics`: what an operator or a load balancer polls, about this one process (so
/// `no-store`: a cache in front must never answer for a replica).
struct OperationsRoutes {
    let store: RuleSetStore
    let metrics: ServerMetrics
    /// The files the server reads (the manifest, the user layer): `/healthz` names them by file name only, as any
    /// client may read it and the machine's paths are none of its business.
    var files: [String] = []

    /// The routes, at the root.
    var collection: RouteCollection<SwitchyardRequestContext> {
        let routes = RouteCollection(context: SwitchyardRequestContext.self)
        routes.get("healthz") { request, context in
            var response = try Health(
                status: "ok",
                generation: store.generation,
                rules: Self.fileName(store.rules.file ?? "bundled"),
                lastRejection: store.lastRejection.map { Self.withoutPaths($0, files: files) }
            )
            .response(from: request, context: context)
            response.headers[.cacheControl] = HTTPCaching.noStore
            return response
        }
        routes.get("metrics") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4", .cacheControl: HTTPCaching.noStore],
                body: .init(byteBuffer: ByteBuffer(bytes: metrics.exposition()))
            )
        }
        return routes
    }
}

extension OperationsRoutes {
    /// A file's name without its folder (`rules.json`); a URL or `bundled` as it is.
    static func fileName(_ source: String) -> String {
        guard !source.contains("://"), source.contains("/") else { return source }
        return URL(fileURLWithPath: source).lastPathComponent
    }

    /// `text` with each of `files` (as given, and as an absolute path) written as its file name: a refused reload's
    /// reason says `rules.json:3:4: error: …`, not where the file lives.
    static func withoutPaths(_ text: String, files: [String]) -> String {
        let paths = files.flatMap { [$0, URL(fileURLWithPath: $0).standardizedFileURL.path] }
        var result = text
        for path in Set(paths).sorted(by: { $0.count > $1.count }) where path.contains("/") {
            result = result.replacingOccurrences(of: path, with: fileName(path))
        }
        return result
    }
}

/// `GET /healthz`: the rule-set generation serving and why the last reload was refused, if it was.
struct Health: ResponseEncodable {
    var status: String
    var generation: Int
    var rules: String
    var lastRejection: String?
}
