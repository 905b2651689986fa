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

/// HTTP caching of the answers made from the version, the rules and the request (#22): `ETag`, `Cache-Control`,
/// `If-None-Match` → `304`, the same documents as without a cache, and nothing kept that fetched.
@Suite struct HTTPCachingTests {
    static let rules =
        #"{"apps": [{"identifier": "a", "name": "A", "scheme": "a"}, {"identifier": "b", "name": "B", "scheme": "b"}], "actions": [{"regex": "https://a\\.example/(\\d+)", "formats": [{"appId": "a", "format": "a://$1"}, {"appId": "b", "format": "b://$1"}]}]}"#

    /// A folder with `rules.json`, removed by `body`'s end.
    static func withManifest<T>(_ text: String = rules, _ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("rules.json")
        try Data(text.utf8).write(to: file)
        return try await body(file)
    }

    static func server(
        _ manifest: ManifestSource,
        networkEnabled: Bool = false,
        cacheMaxAge: Duration = .seconds(60)
    ) async throws -> SwitchyardServer {
        try await SwitchyardServer(
            configuration: ServerConfiguration(
                port: 0,
                manifest: manifest,
                networkEnabled: networkEnabled,
                allowPrivateAddresses: networkEnabled,
                cacheMaxAge: cacheMaxAge
            )
        )
    }

    /// The `ETag` `server` gives `uri`.
    static func tag(_ server: SwitchyardServer, _ uri: String) async throws -> String? {
        try await server.application().test(.router) { client in
            try await client.execute(uri: uri, method: .get) { $0.headers[.eTag] }
        }
    }

    @Test func aRepeatedRequestWithTheTagIs304WithoutABody() async throws {
        try await Self.withManifest { file in
            let app = try await Self.server(.file(file.path)).application()
            try await app.test(.router) { client in
                let uri = "/v1/resolve?url=https://a.example/7&installed=a"
                let first = try await client.execute(uri: uri, method: .get)
                #expect(first.status == .ok)
                #expect(first.headers[.cacheControl] == "public, max-age=60")
                #expect(first.headers[.vary] == nil)
                let tag = try #require(first.headers[.eTag])
                #expect(tag.hasPrefix("\"") && tag.hasSuffix("\"") && tag.count == 34)
                for condition in [tag, "\"other\", \(tag)", "W/\(tag)", "*"] {
                    let again = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: condition])
                    #expect(again.status == .notModified, "\(condition)")
                    #expect(again.body.readableBytes == 0)
                    #expect(again.headers[.eTag] == tag)
                    #expect(again.headers[.cacheControl] == "public, max-age=60")
                }
                let stale = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: "\"other\""])
                #expect(stale.status == .ok)
                #expect(stale.body == first.body)
                #expect(stale.headers[.eTag] == tag)
                let head = try await client.execute(uri: uri, method: .head, headers: [.ifNoneMatch: tag])
                #expect(head.status == .notModified)
            }
        }
    }

    /// The tag is made from what the answer is made from, never from a process's state: two servers of the same
    /// file agree, a reload of the same bytes keeps it, and other rules or another request change it.
    @Test func theTagNamesTheRulesAndTheNormalisedRequest() async throws {
        try await Self.withManifest { file in
            let one = try await Self.server(.file(file.path))
            let two = try await Self.server(.file(file.path))
            let uri = "/v1/resolve?url=https://a.example/7"
            let tag = try #require(try await Self.tag(one, uri))
            #expect(try await Self.tag(two, uri) == tag)
            #expect(await one.rules.reload(reason: "test"))
            #expect(one.rules.store.generation == 2)
            #expect(try await Self.tag(one, uri) == tag)
            let others = [
                "/v1/explain?url=https://a.example/7", "/v1/resolve?url=https://a.example/8",
                "/v1/resolve?url=https://a.example/7&installed=a", "/v1/resolve?url=https://a.example/7&platform=pad",
            ]
            var tags: Set<String> = [tag]
            for other in others { tags.insert(try #require(try await Self.tag(one, other))) }
            #expect(tags.count == others.count + 1)
            // The same installed apps in another spelling and order are the same request.
            #expect(
                try await Self.tag(one, "/v1/resolve?url=https://a.example/7&installed=B:,a")
                    == Self.tag(one, "/v1/resolve?url=https://a.example/7&installed=a,b")
            )
            try Data(Self.rules.replacingOccurrences(of: "a://$1", with: "a://item/$1").utf8).write(to: file)
            #expect(await one.rules.reload(reason: "test"))
            let changed = try #require(try await Self.tag(one, uri))
            #expect(changed != tag)
            #expect(try await Self.tag(one, "/v1/apps") != Self.tag(two, "/v1/apps"))
        }
    }

    /// A query that names only the link skips the decoder (ResolveRoutes): its request, and so its tag, is the one the
    /// decoder makes of a query with the link and nothing the request reads, under a server's own defaults.
    @Test func aQueryOfOnlyTheLinkIsTheRequestTheDecoderMakes() async throws {
        try await Self.withManifest { file in
            let server = try await SwitchyardServer(
                configuration: ServerConfiguration(
                    port: 0,
                    manifest: .file(file.path),
                    timeLimit: .seconds(2),
                    networkEnabled: false
                )
            )
            let onlyTheLink = try #require(try await Self.tag(server, "/v1/resolve?url=https://a.example/7"))
            let decoded = try #require(try await Self.tag(server, "/v1/resolve?url=https://a.example/7&clean=true"))
            #expect(onlyTheLink == decoded)
            let explained = try #require(try await Self.tag(server, "/v1/explain?url=https://a.example/7"))
            #expect(try await Self.tag(server, "/v1/explain?url=https://a.example/7&clean=true") == explained)
        }
    }

    /// The answers a cache keeps are the documents the library makes: a sample of the v5 manifest's own test inputs,
    /// resolved and explained through the router, byte for byte as `DocumentEncoder.document(resolver.resolve(…))`.
    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func answersAreTheLibrarysDocumentsByteForByte() async throws {
        let manifest = try #require(SharedData.url("openerManifest-v5.json"))
        let server = try await Self.server(.file(manifest.path))
        let inputs = Array(server.rules.store.rules.manifest.actions.flatMap(\.testInputs).enumerated())
            .filter { $0.offset % 4 == 0 }.map(\.element).prefix(300)
        #expect(inputs.count >= 200)
        let resolver = server.rules.store.current.resolver
        let app = await server.application()
        try await app.test(.router) { client in
            for (index, input) in inputs.enumerated() {
                let explain = index % 10 == 0
                let query = input.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                let installed = index % 3 == 0 ? "&installed=twitter,youtube" : ""
                let response = try await client.execute(
                    uri: "/v1/\(explain ? "explain" : "resolve")?url=\(query)\(installed)",
                    method: .get
                )
                let request = ResolveRequest(
                    match: MatchOptions(installed: installed.isEmpty ? nil : InstalledApps(list: "twitter,youtube")),
                    timeLimit: server.configuration.timeLimit,
                    trace: explain,
                    maximumLinkLength: server.configuration.maximumLinkLength
                )
                let library = try DocumentEncoder.document(try await resolver.resolve(input, request))
                #expect(Data(response.body.readableBytesView) == library, "\(input)")
                #expect(response.headers[.eTag] != nil, "\(input)")
                let revalidated = try await client.execute(
                    uri: "/v1/\(explain ? "explain" : "resolve")?url=\(query)\(installed)",
                    method: .get,
                    headers: [.ifNoneMatch: response.headers[.eTag] ?? ""]
                )
                #expect(revalidated.status == .notModified)
                #expect(revalidated.body.readableBytes == 0)
            }
        }
    }

    /// A resolution whose script fetched is `no-store`, has no tag, and runs again for every request, a conditional
    /// one included.
    @Test func anAnswerThatFetchedIsNeverKeptAndRunsAgain() async throws {
        let origin = try await LoopbackHTTPServer.start { _ in .text("ok") }
        defer { Task { await origin.stop() } }
        let port = origin.port
        let rules = #"""
            {"apps": [{"identifier": "app", "name": "App", "scheme": "app"}],
             "actions": [{"title": "Count", "regex": "^http://127\\.0\\.0\\.1:\#(port)/item$",
               "formats": [{"appId": "app", "script2": "function process(u, c) { httpRequest('http://127.0.0.1:\#(port)/count'); c('app://counted'); }"}]}]}
            """#
        try await Self.withManifest(rules) { file in
            let app = try await Self.server(.file(file.path), networkEnabled: true).application()
            try await app.test(.router) { client in
                let uri = "/v1/resolve?url=http://127.0.0.1:\(port)/item"
                for condition in [nil, "*", "\"x\""] {
                    let response = try await client.execute(
                        uri: uri,
                        method: .get,
                        headers: condition.map { [.ifNoneMatch: $0] } ?? [:]
                    )
                    #expect(response.status == .ok)
                    #expect(response.headers[.cacheControl] == "no-store")
                    #expect(response.headers[.eTag] == nil)
                    #expect(String(buffer: response.body).contains("app://counted"))
                }
            }
        }
        #expect(origin.requests.count == 3)
    }

    @Test func maxAgeZeroAsksForRevalidationEveryTime() async throws {
        let app = try await Self.server(.bundled, cacheMaxAge: .zero).application()
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/v1/resolve?url=https://twitter.com/jack", method: .get)
            #expect(response.headers[.cacheControl] == "no-cache")
            #expect(response.headers[.eTag] != nil)
        }
    }

    /// What depends on the moment or on one process is never kept: errors, health, metrics, the test report.
    @Test(arguments: [
        "/v1/resolve", "/v1/resolve?url=ftp://a.example/", "/v1/resolve?url=https://a.example&platform=tv", "/nope",
        "/healthz", "/metrics", "/v1/tests",
    ])
    func errorsAndPerProcessAnswersAreNoStore(uri: String) async throws {
        let app = try await Self.server(.bundled).application()
        try await app.test(.router) { client in
            let response = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: "*"])
            #expect(response.status != .notModified)
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(response.headers[.eTag] == nil)
        }
    }

    /// The other answers made from the rules, the bundled catalog or the binary alone are tagged too.
    @Test(arguments: [
        "/v1/apps", "/v1/app-types", "/v1/choose?type=maps&action=search&param=query%3Dx", "/openapi.json",
    ])
    func documentsOfTheRulesTheCatalogAndTheBinaryAreTagged(uri: String) async throws {
        let app = try await Self.server(.bundled).application()
        try await app.test(.router) { client in
            let response = try await client.execute(uri: uri, method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "public, max-age=60")
            let tag = try #require(response.headers[.eTag])
            let again = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified)
        }
    }
}
