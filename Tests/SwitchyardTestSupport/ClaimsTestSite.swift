import Synchronization

/// A site that publishes claims files, served over TLS on 127.0.0.1 with a test authority's certificate for
/// `example.com`: what the claims tests reach as `https://example.com/…` (``LoopbackHTTPServer/connectTo(host:)``).
///
/// The files are set per path (``files``) and can change while it runs; a path with no file answers 404.
public final class ClaimsTestSite: Sendable {
    /// The app the standard AASA file claims `/buy/*` for (and excludes `/buy/private/*`).
    public static let appID = "ABCDE12345.com.example.app"
    /// The second app of the standard AASA file, claiming `/buy/*` too.
    public static let secondAppID = "FGHIJ67890.com.example.other"
    /// The package the standard assetlinks.json trusts.
    public static let package = "com.example.android"
    /// A fingerprint in Digital Asset Links' form.
    public static let fingerprint = (0..<32).map { _ in "AB" }.joined(separator: ":")

    /// `/buy/private/*` excluded, `/buy/*` claimed, for ``appID``.
    public static let aasa = """
        {"applinks": {"details": [{"appIDs": ["\(appID)"], "components": [
          {"/": "/buy/private/*", "exclude": true, "comment": "not these"},
          {"/": "/buy/*"}]}]}}
        """
    /// ``package`` trusted for App Links.
    public static let assetLinks = """
        [{"relation": ["delegate_permission/common.handle_all_urls"],
          "target": {"namespace": "android_app", "package_name": "\(package)", "sha256_cert_fingerprints": ["\(fingerprint)"]}}]
        """
    /// The standard AASA file's place.
    public static let aasaPath = "/.well-known/apple-app-site-association"
    /// The standard assetlinks.json's place.
    public static let assetLinksPath = "/.well-known/assetlinks.json"

    /// The certificates: the authority to trust (`authorityPEM`) and the server's for `example.com`.
    public let certificates: TestCertificates
    /// The TLS server.
    public let server: LoopbackHTTPServer
    private let box: ServedFiles

    /// Serves `files` by path (the standard AASA and assetlinks.json files when not given).
    public static func start(
        _ files: [String: LoopbackHTTPServer.Response]? = nil,
        hosts: [String] = ["example.com"]
    ) async throws -> ClaimsTestSite {
        let certificates = try TestCertificates(hosts: hosts)
        let box = ServedFiles(files ?? [aasaPath: .json(aasa), assetLinksPath: .json(assetLinks)])
        let server = try await LoopbackHTTPServer.start(tls: certificates) { request in
            box.response(for: request.path)
        }
        return ClaimsTestSite(certificates: certificates, server: server, served: box)
    }

    private init(certificates: TestCertificates, server: LoopbackHTTPServer, served box: ServedFiles) {
        self.certificates = certificates
        self.server = server
        self.box = box
    }

    /// Sets what `path` answers (nil: 404).
    public func serve(_ path: String, _ response: LoopbackHTTPServer.Response?) {
        box.set(path, response)
    }

    /// The requests for `path` so far.
    public func requests(for path: String) -> Int { server.requests.count { $0.path == path } }

    /// Stops the server.
    public func stop() async { await server.stop() }
}

/// The files, shared with the server's handler.
private final class ServedFiles: Sendable {
    private let files: Mutex<[String: LoopbackHTTPServer.Response]>

    init(_ files: [String: LoopbackHTTPServer.Response]) {
        self.files = Mutex(files)
    }

    func response(for path: String) -> LoopbackHTTPServer.Response {
        files.withLock { $0[path] } ?? .text("not found", status: 404)
    }

    func set(_ path: String, _ response: LoopbackHTTPServer.Response?) {
        files.withLock { $0[path] = response }
    }
}

extension LoopbackHTTPServer.Response {
    /// A JSON body served as `application/json` (or `contentType`), with `Cache-Control` when given.
    public static func json(
        _ text: String,
        contentType: String = "application/json",
        cacheControl: String? = nil
    ) -> Self {
        var headers = [LoopbackHTTPServer.Header("Content-Type", contentType)]
        if let cacheControl { headers.append(LoopbackHTTPServer.Header("Cache-Control", cacheControl)) }
        return Self(status: 200, headers: headers, body: .bytes(Array(text.utf8)))
    }
}
