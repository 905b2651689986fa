import AppChooser
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinkResolver
import LinkServer
import SwitchyardTestSupport
import Testing

/// `/v1/choices/sites` and the resolution routes over a server with a choices store (a real SQLite file).
@Suite struct SiteChoiceRoutesTests {
    /// A folder with a manifest where Alpha and Beta open example.com, and the store's path.
    final class Folder {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("site-routes-\(UUID().uuidString)")
        var store: String { url.appendingPathComponent("choices.sqlite").path }
        let manifest: String

        init() throws {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            manifest = url.appendingPathComponent("manifest.json").path
            let text = RuleFixture.text(
                actions: #"""
                    [{"title": "Open", "regex": "^https://([a-z]+\\.)?example\\.com/", "formats": [
                      {"appId": "alpha", "format": "alpha://open"}, {"appId": "beta", "format": "beta://open"}]}]
                    """#
            )
            try Data(text.utf8).write(to: URL(fileURLWithPath: manifest))
        }

        deinit { try? FileManager.default.removeItem(at: url) }

        func server(withStore: Bool = true) async throws -> SwitchyardServer {
            var configuration = ServerConfiguration(port: 0, manifest: .file(manifest), networkEnabled: false)
            configuration.choices = withStore ? try ChoicesStore(path: store) : nil
            return try await SwitchyardServer(configuration: configuration)
        }
    }

    static func json(_ buffer: ByteBuffer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any])
    }

    /// The apps of the openings marked preferred, with the reason.
    static func preferred(_ document: [String: Any]) throws -> [String: String] {
        var marked: [String: String] = [:]
        for opening in try #require(document["openings"] as? [[String: Any]]) {
            if let app = opening["app"] as? String, let preferred = opening["preferred"] as? [String: String] {
                marked[app] = "\(preferred["by"] ?? "") \(preferred["reason"] ?? "")"
            }
        }
        return marked
    }

    @Test func rememberedSitesArePreferredByEveryResolutionRoute() async throws {
        let folder = try Folder()
        try await folder.server().application().test(.router) { client in
            try await client.execute(
                uri: "/v1/choices/sites/Example.com",
                method: .put,
                body: ByteBuffer(string: #"{"app": "beta", "includeSubdomains": true}"#)
            ) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                let body = try Self.json(response.body)
                #expect(body["site"] as? String == "example.com" && body["scope"] as? String == "domain")
            }
            try await client.execute(
                uri: "/v1/choices/sites/m.example.com",
                method: .put,
                body: ByteBuffer(string: #"{"app": "alpha"}"#)
            ) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/v1/resolve?url=https%3A%2F%2Fwww.example.com%2F", method: .get) {
                response in
                let marked = try Self.preferred(try Self.json(response.body))
                #expect(marked == ["beta": "remembered-site example.com"])
            }
            try await client.execute(uri: "/v1/explain?url=https%3A%2F%2Fm.example.com%2F", method: .get) { response in
                let marked = try Self.preferred(try Self.json(response.body))
                #expect(marked == ["alpha": "remembered-site m.example.com"])
            }
            try await client.execute(
                uri: "/v1/resolve",
                method: .post,
                body: ByteBuffer(
                    string:
                        #"{"urls": ["https://m.example.com/", "https://example.org/", "nope"], "installed": ["beta"]}"#
                )
            ) { response in
                let results = try #require(try Self.json(response.body)["results"] as? [[String: Any]])
                #expect(results.count == 3)
                // Alpha is not installed: nothing marked, and a notice says why.
                #expect(try Self.preferred(results[0]).isEmpty)
                let notices = try #require(results[0]["notices"] as? [[String: String]])
                #expect(
                    notices == [
                        [
                            "code": "E_REMEMBERED_APP_UNAVAILABLE",
                            "message": #"the app "alpha" remembered for m.example.com is not installed"#,
                        ]
                    ]
                )
                // No site choice for example.org: only the offline server's notice that it was not asked.
                let other = (results[1]["notices"] as? [[String: String]])?.compactMap { $0["code"] }
                #expect(other == ["E_OFFLINE"] && results[2]["error"] != nil)
            }
            try await client.execute(uri: "/v1/choices/sites", method: .get) { response in
                let sites = try #require(try Self.json(response.body)["sites"] as? [[String: Any]])
                #expect(sites.compactMap { $0["site"] as? String } == ["example.com", "m.example.com"])
            }
            try await client.execute(uri: "/v1/choices/sites/M.example.com", method: .delete) { response in
                #expect(response.status == .ok)
                let body = try Self.json(response.body)
                #expect(body["app"] as? String == "alpha")
            }
            try await client.execute(uri: "/v1/choices/sites/m.example.com", method: .delete) { response in
                #expect(response.status == .notFound)
                let error = try #require(try Self.json(response.body)["error"] as? [String: Any])
                #expect(error["code"] as? String == "E_NO_SITE_CHOICE")
            }
            // The domain choice covers the host again.
            try await client.execute(uri: "/v1/resolve?url=https%3A%2F%2Fm.example.com%2F", method: .get) { response in
                let marked = try Self.preferred(try Self.json(response.body))
                #expect(marked == ["beta": "remembered-site example.com"])
            }
        }
        // The choices are in the file: a new store on it sees them.
        #expect(try ChoicesStore(path: folder.store).siteChoices().map(\.site) == ["example.com"])
    }

    /// The answers' entity tags name the store's revision: a conditional request made before a site was remembered
    /// (through the API, or by another process on the same file) gets the new document, not a 304.
    @Test func rememberingASiteChangesTheEntityTag() async throws {
        let folder = try Folder()
        let storePath = folder.store
        let uri = "/v1/resolve?url=https%3A%2F%2Fwww.example.com%2F"
        try await folder.server().application().test(.router) { client in
            func tag() async throws -> String {
                try await client.execute(uri: uri, method: .get) { response in
                    try #require(response.headers[.eTag])
                }
            }
            let before = try await tag()
            #expect(try await tag() == before)
            try await client.execute(
                uri: "/v1/choices/sites/www.example.com",
                method: .put,
                body: ByteBuffer(string: #"{"app": "beta"}"#)
            ) { response in
                #expect(response.status == .ok)
            }
            let afterPut = try await tag()
            #expect(afterPut != before)
            try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: before]) { response in
                #expect(response.status == .ok)
                let marked = try Self.preferred(try Self.json(response.body))
                #expect(marked == ["beta": "remembered-site www.example.com"])
            }
            // Another writer on the same file (the CLI's `choose --remember-site`).
            try ChoicesStore(path: storePath).rememberSite("www.example.com", app: "alpha")
            let afterOther = try await tag()
            #expect(afterOther != afterPut)
            try await client.execute(uri: uri, method: .get) { response in
                let marked = try Self.preferred(try Self.json(response.body))
                #expect(marked == ["alpha": "remembered-site www.example.com"])
            }
        }
    }

    /// Bad bodies and hosts: located errors, nothing stored.
    @Test(
        arguments: [
            ("example.com", #"{"app": 3}"#, "E_JSON", "$.app"),
            ("example.com", #"{}"#, "E_JSON", "$.app"),
            ("example.com", #"{"app": "alpha", "includeSubdomains": "yes"}"#, "E_JSON", "$.includeSubdomains"),
            ("example.com", #"{"app": "nosuchapp"}"#, "E_UNKNOWN_APP", "$.app"),
            ("co.uk", #"{"app": "alpha", "includeSubdomains": true}"#, "E_PUBLIC_SUFFIX", "$.includeSubdomains"),
            ("example.com:8080", #"{"app": "alpha"}"#, "E_INVALID_SITE", nil),
        ] as [(String, String, String, String?)]
    )
    func badRequestsAreLocatedAndStoreNothing(host: String, body: String, code: String, path: String?) async throws {
        let folder = try Folder()
        try await folder.server().application().test(.router) { client in
            try await client.execute(uri: "/v1/choices/sites/\(host)", method: .put, body: ByteBuffer(string: body)) {
                response in
                #expect(response.status == .badRequest)
                let error = try #require(try Self.json(response.body)["error"] as? [String: Any])
                #expect(error["code"] as? String == code)
                #expect(error["path"] as? String == path)
                let message = try #require(error["message"] as? String)
                #expect(!message.contains("Error") && !message.contains("SQLite"), "\(message)")
            }
        }
        #expect(try ChoicesStore(path: folder.store).siteChoices().isEmpty)
    }

    /// A store that breaks while the server runs: the resolution stands with a notice that names no file of the
    /// server's.
    @Test func anUnreadableStoreIsANoticeWithoutTheServersPath() async throws {
        let folder = try Folder()
        let (store, folderPath) = (folder.store, folder.url.path)
        try await folder.server().application().test(.router) { client in
            try Data("garbage".utf8).write(to: URL(fileURLWithPath: store))
            try await client.execute(uri: "/v1/resolve?url=https://example.com/", method: .get) { response in
                #expect(response.status == .ok)
                let document = try Self.json(response.body)
                let notices = try #require(document["notices"] as? [[String: String]])
                #expect(notices.map { $0["code"] } == ["E_CHOICES_UNREADABLE"])
                #expect(notices.allSatisfy { !($0["message"] ?? "").contains(folderPath) }, "\(notices)")
                #expect((document["openings"] as? [Any])?.count == 2)
            }
        }
    }

    /// The server refuses an unknown app with the chooser's own sentence, the one `choose --remember-site` prints.
    @Test func anUnknownAppIsRefusedWithTheChoosersSentence() async throws {
        let folder = try Folder()
        try await folder.server().application().test(.router) { client in
            try await client.execute(
                uri: "/v1/choices/sites/example.com",
                method: .put,
                body: ByteBuffer(string: #"{"app": "alhpa"}"#)
            ) { response in
                #expect(response.status == .badRequest)
                let error = try #require(try Self.json(response.body)["error"] as? [String: Any])
                #expect(error["message"] as? String == #"$.app: the rules have no app "alhpa"; did you mean "alpha"?"#)
            }
        }
    }

    @Test func aServerWithoutAStoreSaysHowToGiveOne() async throws {
        let folder = try Folder()
        try await folder.server(withStore: false).application().test(.router) { client in
            for method in [HTTPRequest.Method.get, .delete] {
                let uri = method == .get ? "/v1/choices/sites" : "/v1/choices/sites/example.com"
                try await client.execute(uri: uri, method: method) { response in
                    #expect(response.status == .notFound)
                    let error = try #require(try Self.json(response.body)["error"] as? [String: Any])
                    #expect(error["code"] as? String == "E_NO_CHOICES_STORE")
                }
            }
            try await client.execute(uri: "/v1/resolve?url=https%3A%2F%2Fexample.com%2F", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.store))
    }
}
