import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinkMatching
import LinkResolver
import LinkRules
import LinkServer
import SwitchyardTestSupport
import Testing

/// The HTTP API in-process (HummingbirdTesting's router client: no sockets).
@Suite struct ServerRoutesTests {
    static func server(_ manifest: ManifestSource = .bundled) async throws -> SwitchyardServer {
        try await SwitchyardServer(
            configuration: ServerConfiguration(
                port: 0,
                manifest: manifest,
                maximumLinkLength: 200,
                maximumBodyBytes: 4096,
                maximumBatchSize: 5
            )
        )
    }

    static func json(_ buffer: ByteBuffer) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView))
        return try #require(object as? [String: Any])
    }

    @Test func healthAndMetricsAnswer() async throws {
        let app = try await Self.server().application()
        try await app.test(.router) { client in
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok)
                let body = try Self.json(response.body)
                #expect(body["status"] as? String == "ok")
            }
            try await client.execute(uri: "/v1/resolve?url=https://www.youtube.com/watch?v%3DdQw4w9WgXcQ", method: .get)
            { _ in }
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains("switchyard_requests_total{route=\"/v1/resolve\",status=\"200\"} 1"))
                #expect(
                    text.contains("switchyard_request_duration_seconds_bucket{route=\"/v1/resolve\",le=\"+Inf\"} 1")
                )
            }
        }
    }

    /// Every JSON answer, documents and errors alike, says which Switchyard wrote it.
    @Test func everyDocumentCarriesTheVersion() async throws {
        let app = try await Self.server().application()
        let requests: [(String, HTTPRequest.Method, String?)] = [
            ("/v1/resolve?url=https://twitter.com/jack", .get, nil),
            ("/v1/resolve", .post, #"{"urls": ["https://twitter.com/jack", "nope"]}"#),
            ("/v1/explain?url=https://twitter.com/jack", .get, nil),
            ("/v1/apps", .get, nil), ("/v1/tests", .get, nil), ("/healthz", .get, nil),
            ("/v1/choose?type=maps&action=search&param=query%3Dx", .get, nil),
            ("/v1/xcallback/parse", .post, #"{"url": "bear://x-callback-url/create?title=a"}"#),
            ("/v1/resolve?url=ftp://a.example/", .get, nil), ("/nope", .get, nil), ("/v1/resolve", .delete, nil),
        ]
        try await app.test(.router) { client in
            for (uri, method, body) in requests {
                try await client.execute(uri: uri, method: method, body: body.map { ByteBuffer(string: $0) }) {
                    response in
                    let text = String(buffer: response.body)
                    #expect(text.hasPrefix(#"{"version":"\#(SwitchyardVersion.current)""#), "\(method) \(uri): \(text)")
                    #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
                }
            }
        }
    }

    @Test func resolvesALinkWithTheDocumentedShape() async throws {
        let app = try await Self.server().application()
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/resolve?url=https://www.youtube.com/watch?v%3DdQw4w9WgXcQ", method: .get)
            { response in
                #expect(response.status == .ok)
                let body = try Self.json(response.body)
                #expect(body["input"] as? String == "https://www.youtube.com/watch?v=dQw4w9WgXcQ")
                let openings = try #require(body["openings"] as? [[String: Any]])
                #expect(
                    openings.contains {
                        $0["kind"] as? String == "action" && ($0["url"] as? String)?.hasPrefix("youtube") == true
                    }
                )
                #expect(openings.allSatisfy { $0["needsScript"] is Bool && $0["title"] is String })
            }
        }
    }

    @Test(arguments: [
        ("/v1/resolve", HTTPResponse.Status.badRequest, "E_MISSING_URL"),
        ("/v1/resolve?url=", .badRequest, "E_EMPTY_INPUT"),
        ("/v1/resolve?url=//twitter.com/jack", .badRequest, "E_NOT_ABSOLUTE"),
        ("/v1/resolve?url=https://evil.example/a%0A%7B%22X%22:1%7D", .badRequest, "E_CONTROL_CHAR"),
        ("/v1/resolve?url=https://twitter.com:99999/jack", .badRequest, "E_BAD_PORT"),
        ("/v1/resolve?url=http://user:pass@evil.com@twitter.com/", .badRequest, "E_USERINFO"),
        ("/v1/resolve?url=https://example.com/" + String(repeating: "a", count: 300), .uriTooLong, "E_TOO_LONG"),
        ("/v1/resolve?url=https://twitter.com/jack&platform=watch", .badRequest, "E_PLATFORM"),
    ])
    func refusesBadLinksWithJSONErrors(uri: String, status: HTTPResponse.Status, code: String) async throws {
        let app = try await Self.server().application()
        try await app.test(.router) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == status)
                let error = try #require(try Self.json(response.body)["error"] as? [String: Any])
                #expect(error["code"] as? String == code)
                #expect((error["message"] as? String)?.isEmpty == false)
            }
        }
    }

    /// An opening without a URL says why as `{"code", "message"}`, like every other error, and an opening has one
    /// shape in `/v1/resolve`, `/v1/explain` and a batch.
    @Test func anOpeningsErrorIsACodeAndAMessageOnEveryRoute() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("opening-error-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("rules.json")
        let manifest =
            #"{"apps": [{"identifier": "a", "name": "A", "scheme": "a"}], "actions": [{"title": "Open", "regex": "https?://j\\.example/\\?u=(.*)$", "formats": [{"appId": "a", "format": "$1"}]}]}"#
        try Data(manifest.utf8).write(to: file)
        let link = "https://j.example/?u=javascript:alert(1)"
        let query = try #require(link.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        let app = try await Self.server(.file(file.path)).application()
        try await app.test(.router) { client in
            var shapes: [NSDictionary] = []
            for uri in ["/v1/resolve?url=\(query)", "/v1/explain?url=\(query)"] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == .ok)
                    let openings = try #require(try Self.json(response.body)["openings"] as? [[String: Any]])
                    shapes += openings.filter { $0["app"] as? String == "a" }.map { $0 as NSDictionary }
                }
            }
            let batch = ByteBuffer(string: #"{"urls": ["\#(link)"]}"#)
            try await client.execute(uri: "/v1/resolve", method: .post, body: batch) { response in
                let results = try #require(try Self.json(response.body)["results"] as? [[String: Any]])
                let openings = try #require(results.first?["openings"] as? [[String: Any]])
                shapes += openings.filter { $0["app"] as? String == "a" }.map { $0 as NSDictionary }
            }
            #expect(shapes.count == 3)
            let error = try #require(shapes.first?["error"] as? [String: Any])
            #expect(Set(error.keys) == ["code", "message"])
            #expect(error["code"] as? String == "E_UNSAFE_OUTPUT")
            #expect((error["message"] as? String)?.contains("javascript") == true, "\(error)")
            #expect(shapes.first?["url"] is NSNull)
            #expect(shapes.allSatisfy { $0 == shapes[0] }, "\(shapes)")
        }
    }

    @Test func batchResolvesInOrderAndReportsBadEntries() async throws {
        let app = try await Self.server().application()
        try await app.test(.router) { client in
            let body = ByteBuffer(
                string: #"{"urls": ["https://github.com/apple/swift", "not a link"], "platform": "phone"}"#
            )
            try await client.execute(uri: "/v1/resolve", method: .post, body: body) { response in
                #expect(response.status == .ok)
                let results = try #require(try Self.json(response.body)["results"] as? [[String: Any]])
                #expect(results.count == 2)
                #expect(results[0]["openings"] is [Any])
                #expect((results[1]["error"] as? [String: Any])?["code"] as? String == "E_NOT_ABSOLUTE")
            }
            try await client.execute(uri: "/v1/resolve", method: .post, body: ByteBuffer(string: "{nope")) { response in
                #expect(response.status == .badRequest)
            }
            let six =
                #"{"urls": ["https://a.com/","https://a.com/","https://a.com/","https://a.com/","https://a.com/","https://a.com/"]}"#
            try await client.execute(uri: "/v1/resolve", method: .post, body: ByteBuffer(string: six)) { response in
                #expect(response.status == .contentTooLarge)
            }
            let huge = ByteBuffer(string: #"{"urls": [""# + String(repeating: "a", count: 5000) + #""]}"#)
            try await client.execute(uri: "/v1/resolve", method: .post, body: huge) { response in
                #expect(response.status == .contentTooLarge)
            }
        }
    }

    @Test func listsAppsServesThePlaygroundAndUnknownPathsAre404() async throws {
        let app = try await Self.server().application()
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/apps", method: .get) { response in
                let apps = try #require(try Self.json(response.body)["apps"] as? [[String: Any]])
                #expect(apps.count >= 25)
            }
            try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains("Switchyard playground"))
            }
            try await client.execute(uri: "/playground/app.js", method: .get) { response in
                #expect(response.headers[.contentType]?.hasPrefix("text/javascript") == true)
            }
            try await client.execute(uri: "/nope/../../etc/passwd", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }

    /// `/v1/tests` runs the manifest's own tests with their scripts, through the runner `switchyard test` uses: the
    /// v5 manifest's script cases that fail are counted, not hidden as skipped.
    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func testsRunTheManifestsScriptsAsTheCommandLineDoes() async throws {
        let manifest = try #require(SharedData.url("openerManifest-v5.json"))
        let server = try await SwitchyardServer(
            configuration: ServerConfiguration(port: 0, manifest: .file(manifest.path), networkEnabled: false)
        )
        // What `switchyard test openerManifest-v5.json` runs: the rules, and an offline script engine.
        let command = await RuleTestRunner(rules: server.rules.store.rules, engine: ScriptEngine(fetcher: nil)).run()
        try await server.application().test(.router) { client in
            try await client.execute(uri: "/v1/tests", method: .get) { response in
                #expect(response.status == .ok)
                let body = try Self.json(response.body)
                let failed = try #require(body["failed"] as? Int)
                #expect(failed > 0)
                #expect(failed == command.failed)
                #expect(body["passed"] as? Int == command.passed)
                #expect(body["skipped"] as? Int == command.skipped)
                let results = try #require(body["results"] as? [[String: Any]])
                let scriptFailures = results.filter {
                    $0["kind"] as? String == "script" && $0["status"] as? String == "failed"
                }
                #expect(!scriptFailures.isEmpty)
                #expect(!results.contains { $0["reason"] as? String == "script" }, "a script case was skipped unrun")
            }
        }
    }

    @Test func parsesXCallbackURLs() async throws {
        let app = try await Self.server().application()
        try await app.test(.router) { client in
            let good = ByteBuffer(
                string:
                    #"{"url": "bear://x-callback-url/create?x-success=myapp%3A%2F%2Fdone%3Fx%3D1&title=Hi%20there"}"#
            )
            try await client.execute(uri: "/v1/xcallback/parse", method: .post, body: good) { response in
                #expect(response.status == .ok)
                let body = try Self.json(response.body)
                #expect(body["success"] as? String == "myapp://done?x=1")
                #expect(body["action"] as? String == "create")
            }
            let bad = ByteBuffer(string: #"{"url": "bear://x-callback-url/create?x-success=javascript%3Aalert(1)"}"#)
            try await client.execute(uri: "/v1/xcallback/parse", method: .post, body: bad) { response in
                #expect(response.status == .badRequest)
                let body = try Self.json(response.body)
                #expect((body["error"] as? [String: Any])?["code"] as? String == "E_FORBIDDEN_CALLBACK_SCHEME")
            }
        }
    }

    @Test func manifestURLIsDownloadedAndReloadedWhenItChanges() async throws {
        let version = Version()
        let server = try await LoopbackHTTPServer.start { _ in
            let format = await version.current == 1 ? "a://$1" : "b://$1"
            let body =
                #"{"apps": [{"identifier": "a", "name": "A", "scheme": "a"}], "actions": [{"regex": "https://a\\.example/(\\d+)", "formats": [{"appId": "a", "format": "\#(format)"}]}]}"#
            return .text(body, headers: [.init("ETag", "\"v\(await version.current)\"")])
        }
        defer { Task { await server.stop() } }
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("serve-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cache) }
        let configuration = ServerConfiguration(
            port: 0,
            manifest: .url(server.url("/rules.json")),
            reloadInterval: .milliseconds(1),
            allowPrivateAddresses: true,
            cacheDirectory: cache
        )
        let app = try await SwitchyardServer(configuration: configuration)
        #expect(try app.rules.store.rules.resolve("https://a.example/7").openings.first?.url == "a://7")
        await version.bump()
        try await Task.sleep(for: .milliseconds(20))  // past the (tiny) lifetime: the next check asks the server again
        #expect(await app.rules.reload(reason: "test"))
        #expect(try app.rules.store.rules.resolve("https://a.example/7").openings.first?.url == "b://7")
    }

    actor Version {
        var current = 1
        func bump() { current += 1 }
    }

    @Test func choosesBetweenInstalledApps() async throws {
        let app = try await Self.server().application()
        try await app.test(.router) { client in
            try await client.execute(
                uri: "/v1/choose?type=maps&action=search&param=query%3DZ%C3%BCrich&installed=maps,comgooglemaps",
                method: .get
            ) { response in
                #expect(response.status == .ok)
                let body = try Self.json(response.body)
                let choices = try #require(body["choices"] as? [[String: Any]])
                #expect(
                    choices.compactMap { $0["url"] as? String } == [
                        "maps://?q=Z%C3%BCrich", "comgooglemaps://?q=Z%C3%BCrich",
                    ]
                )
            }
            // Values cannot break the query; a whole-link placeholder gives the link itself.
            try await client.execute(
                uri: "/v1/choose?type=maps&action=search&param=query%3Da%26b%3Dc%23d&installed=maps",
                method: .get
            ) { response in
                let choices = try #require(try Self.json(response.body)["choices"] as? [[String: Any]])
                #expect(choices.compactMap { $0["url"] as? String } == ["maps://?q=a%26b%3Dc%23d"])
            }
            try await client.execute(
                uri:
                    "/v1/choose?type=browser&action=browse&param=url%3Dhttps%3A%2F%2Fexample.com%2Fa%3Fq%3D1&installed=safari",
                method: .get
            ) { response in
                let choices = try #require(try Self.json(response.body)["choices"] as? [[String: Any]])
                #expect(choices.compactMap { $0["url"] as? String } == ["https://example.com/a?q=1"])
            }
            try await client.execute(uri: "/v1/choose?type=fax&action=send", method: .get) { response in
                #expect(response.status == .notFound)
                // The code once, in its field; the message does not repeat it.
                let error = try #require(try Self.json(response.body)["error"] as? [String: Any])
                #expect(error["code"] as? String == "E_UNKNOWN_TYPE")
                let message = try #require(error["message"] as? String)
                #expect(
                    message.hasPrefix(#"no app type "fax" (known: "#) && !message.contains("E_UNKNOWN"),
                    "\(message)"
                )
            }
        }
    }

    /// `/v1/app-types` lists what `/v1/choose` takes: every type and action it lists is answered there.
    @Test func appTypesListWhatTheChooserTakes() async throws {
        let app = try await Self.server().application()
        try await app.test(.router) { client in
            var types: [[String: Any]] = []
            try await client.execute(uri: "/v1/app-types", method: .get) { response in
                #expect(response.status == .ok)
                types = try #require(try Self.json(response.body)["types"] as? [[String: Any]])
            }
            let twitter = try #require(types.first { $0["key"] as? String == "twitter" })
            let actions = try #require(twitter["actions"] as? [[String: Any]])
            #expect(actions.contains { $0["key"] as? String == "show_profile" && $0["name"] is String })
            let parameters = try #require(twitter["parameters"] as? [[String: Any]])
            #expect(parameters.contains { $0["key"] as? String == "profile_screenname" })
            let apps = try #require(twitter["apps"] as? [[String: Any]])
            #expect(apps.contains { $0["key"] as? String == "twitter" && $0["scheme"] is String })
            #expect(types.count >= 4)
            for type in types {
                let key = try #require(type["key"] as? String)
                for action in try #require(type["actions"] as? [[String: Any]]) {
                    let actionKey = try #require(action["key"] as? String)
                    // Each action says the parameters it fills; one of them is needed.
                    let parameter = try #require((action["parameters"] as? [String])?.first, "\(key)/\(actionKey)")
                    let uri =
                        "/v1/choose?type=\(key)&action=\(actionKey)&param=\(parameter)%3Dhttps%3A%2F%2Fexample.com"
                    try await client.execute(uri: uri, method: .get) { response in
                        #expect(response.status == .ok, "\(key)/\(actionKey): \(String(buffer: response.body))")
                    }
                }
            }
        }
    }

    /// `/v1/choose` checks parameters by the picker's one rule, as `choose --param` does: none of the action's
    /// parameters is 400 `E_MISSING_PARAMETER` naming them, an unknown key 400 `E_UNKNOWN_PARAMETER` naming it.
    @Test(arguments: [
        (
            "/v1/choose?type=twitter&action=show_profile",
            "E_MISSING_PARAMETER",
            #"action "show_profile" of app type "twitter" needs the parameter profile_screenname"#
        ),
        (
            "/v1/choose?type=twitter&action=show_profile&param=profile_screenname%3Djack&param=nope%3D1",
            "E_UNKNOWN_PARAMETER",
            #"app type "twitter" has no parameter "nope" (known: profile_screenname, text, status_id)"#
        ),
    ])
    func chooseChecksItsParameters(uri: String, code: String, message: String) async throws {
        let app = try await Self.server().application()
        try await app.test(.router) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .badRequest)
                let error = try #require(try Self.json(response.body)["error"] as? [String: Any])
                #expect(error["code"] as? String == code)
                #expect((error["message"] as? String)?.hasPrefix(message) == true, "\(error)")
            }
        }
    }

    @Test func reloadSwapsGoodRulesAndKeepsThemWhenANewFileIsBad() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "switchyard-reload-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("rules.json")
        let good =
            #"{"apps": [{"identifier": "a", "name": "A", "scheme": "a"}], "actions": [{"regex": "https://a\\.example/(\\d+)", "testInputs": ["https://a.example/1"], "formats": [{"appId": "a", "format": "a://$1", "testResults": ["a://1"]}]}]}"#
        try Data(good.utf8).write(to: file)
        let server = try await Self.server(.file(file.path))
        #expect(server.rules.store.generation == 1)
        #expect(await server.rules.reload(reason: "test"))
        #expect(server.rules.store.generation == 2)
        // A manifest whose own test fails is refused; the previous rules keep answering.
        try Data(good.replacingOccurrences(of: #""a://1"]"#, with: #""a://2"]"#).utf8).write(to: file)
        #expect(await server.rules.reload(reason: "test") == false)
        #expect(server.rules.store.generation == 2)
        #expect(server.rules.store.lastRejection?.contains("tests fail") == true)
        try Data("{ truncated".utf8).write(to: file)
        #expect(await server.rules.reload(reason: "test") == false)
        #expect(try server.rules.store.rules.resolve("https://a.example/7").openings.first?.url == "a://7")
    }

    /// `/healthz`, which any client may read, names the served manifest by its file name, and a refused reload's
    /// reason without the folder: it showed the manifest's absolute path.
    @Test func healthShowsNoFilePath() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "switchyard-health-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("rules.json")
        try Data(#"{"apps": [{"identifier": "a", "name": "A", "scheme": "a"}]}"#.utf8).write(to: file)
        let server = try await Self.server(.file(file.path))
        let app = await server.application()
        try await app.test(.router) { client in
            try await client.execute(uri: "/healthz", method: .get) { response in
                #expect(response.status == .ok)
                let body = String(buffer: response.body)
                let health = try Self.json(response.body)
                #expect(health["rules"] as? String == "rules.json", "\(body)")
                #expect(!body.contains(directory.path), "\(body)")
            }
            try Data("{ truncated".utf8).write(to: file)
            #expect(await server.rules.reload(reason: "test") == false)
            #expect(server.rules.store.lastRejection?.contains(file.path) == true)
            try await client.execute(uri: "/healthz", method: .get) { response in
                let body = String(buffer: response.body)
                let rejection = try #require(try Self.json(response.body)["lastRejection"] as? String, "\(body)")
                #expect(rejection.hasPrefix("rules.json:"), "\(rejection)")
                #expect(!body.contains(directory.path), "\(body)")
            }
        }
    }
}
