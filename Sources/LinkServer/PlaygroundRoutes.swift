import Foundation
import Hummingbird

/// `GET /` and its files (script, style sheet, icon; `/favicon.ico` is the icon too): the playground page (plain HTML, CSS and JavaScript bundled with the binary; no build
/// step).
enum PlaygroundRoutes {
    static let files: [(path: RouterPath, resource: String, type: String)] = [
        ("/", "index.html", "text/html; charset=utf-8"),
        ("/playground/app.js", "app.js", "text/javascript; charset=utf-8"),
        ("/playground/style.css", "style.css", "text/css; charset=utf-8"),
        ("/playground/icon.svg", "icon.svg", "image/svg+xml"),
        // What a browser asks for on every page it opens when the page names no icon (and some clients regardless):
        // answered with the icon, so the log shows no 404 per page load.
        ("/favicon.ico", "icon.svg", "image/svg+xml"),
        ("/playground/predict.js", "predict.js", "text/javascript; charset=utf-8"),
    ]

    /// The routes, at the root; a file missing from the bundle is not served.
    static var collection: RouteCollection<SwitchyardRequestContext> {
        let routes = RouteCollection(context: SwitchyardRequestContext.self)
        for file in files {
            guard
                let url = Bundle.module.url(forResource: file.resource, withExtension: nil, subdirectory: "playground"),
                let data = try? Data(contentsOf: url)
            else { continue }
            let buffer = ByteBuffer(bytes: data)
            routes.get(file.path) { _, _ in
                Response(
                    status: .ok,
                    headers: [.contentType: file.type, .cacheControl: "no-cache"],
                    body: .init(byteBuffer: buffer)
                )
            }
        }
        return routes
    }
}
