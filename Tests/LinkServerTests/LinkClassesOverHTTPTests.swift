import BundledRules
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinkMatching
import LinkResolver
import LinkServer
import SwitchyardTestSupport
import Testing
import WebLinks

/// The classes of hostile and equivalent links (``LinkClassCases``) through the HTTP API, compared with the library:
/// refusals as 400 with `{"error": {"code", "message"}}` (single and batch), one canonical link, refused decoding
/// steps in the document, no raw invisible characters in any answer, and short links unwrapped hop by hop.
@Suite struct LinkClassesOverHTTPTests {
    static func application(
        networkEnabled: Bool = false,
        allowPrivateAddresses: Bool = false
    ) async throws -> some ApplicationProtocol {
        try await SwitchyardServer(
            configuration: ServerConfiguration(
                port: 0,
                networkEnabled: networkEnabled,
                allowPrivateAddresses: allowPrivateAddresses
            )
        ).application()
    }

    static func json(_ buffer: ByteBuffer) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any])
    }

    static func query(_ link: String) -> String {
        "/v1/resolve?url=" + (link.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }

    /// The library's answer for the same link: the bundled rules, offline.
    static func library(_ link: String) async throws -> Resolution {
        try await Resolver(rules: try RuleSet.bundled(), engine: ScriptEngine(fetcher: nil), fetcher: nil)
            .resolve(link, ResolveRequest())
    }

    @Test(arguments: LinkClassCases.refused)
    func refusedLinksAre400WithTheLibrarysCode(link: String, code: String) async throws {
        let library = await #expect(throws: LinkError.self) { try await Self.library(link) }
        #expect(library?.code.rawValue == code)
        let app = try await Self.application()
        try await app.test(.router) { client in
            try await client.execute(uri: Self.query(link), method: .get) { response in
                #expect(response.status == .badRequest)
                let error = try #require(try Self.json(response.body)["error"] as? [String: Any])
                #expect(error["code"] as? String == code)
                #expect((error["message"] as? String)?.isEmpty == false)
            }
            // In a batch, the entry carries the same error and the others are answered.
            let body = try JSONSerialization.data(withJSONObject: ["urls": [link, "https://twitter.com/jack"]])
            try await client.execute(uri: "/v1/resolve", method: .post, body: ByteBuffer(bytes: body)) { response in
                #expect(response.status == .ok)
                let results = try #require(try Self.json(response.body)["results"] as? [[String: Any]])
                #expect((results.first?["error"] as? [String: Any])?["code"] as? String == code)
                #expect(results.last?["openings"] is [Any])
            }
        }
    }

    /// A host label that begins `xn--` and is not valid punycode: 400 with the library's message, which names the
    /// label (issue 28 part 7).
    @Test func aLabelThatIsNotPunycodeIsRefusedByName() async throws {
        let link = "https://xn--zz-zzzz.example/jack"
        let library = try #require(await #expect(throws: LinkError.self) { try await Self.library(link) })
        #expect(
            library.message
                == "the host label \"xn--zz-zzzz\" is not valid punycode: it ends in the middle of an encoded character"
        )
        let app = try await Self.application()
        try await app.test(.router) { client in
            try await client.execute(uri: Self.query(link), method: .get) { response in
                #expect(response.status == .badRequest)
                let error = try #require(try Self.json(response.body)["error"] as? [String: Any])
                #expect(error["code"] as? String == "E_BAD_HOST")
                #expect(error["message"] as? String == library.message)
            }
        }
    }

    /// A link without its scheme: 400 with `E_NOT_ABSOLUTE` and a message that suggests the `https://` link, the
    /// library's (issue 30 item 9); in a batch, the entry's error says the same.
    @Test func aLinkWithoutItsSchemeGetsASuggestion() async throws {
        let link = "twitter.com/jack/status/20"
        let library = try #require(await #expect(throws: LinkError.self) { try await Self.library(link) })
        #expect(library.suggestion == "https://twitter.com/jack/status/20")
        #expect(library.message.hasSuffix("did you mean \"https://twitter.com/jack/status/20\"?"))
        let app = try await Self.application()
        try await app.test(.router) { client in
            try await client.execute(uri: Self.query(link), method: .get) { response in
                #expect(response.status == .badRequest)
                let error = try #require(try Self.json(response.body)["error"] as? [String: Any])
                #expect(error["code"] as? String == "E_NOT_ABSOLUTE")
                #expect(error["message"] as? String == library.message)
            }
            let body = try JSONSerialization.data(withJSONObject: ["urls": [link]])
            try await client.execute(uri: "/v1/resolve", method: .post, body: ByteBuffer(bytes: body)) { response in
                #expect(response.status == .ok)
                let results = try #require(try Self.json(response.body)["results"] as? [[String: Any]])
                #expect((results.first?["error"] as? [String: Any])?["message"] as? String == library.message)
            }
        }
    }

    @Test(arguments: LinkClassCases.equivalent)
    func spellingsOfOneLinkGetItsOpenings(variant: String, canonical: String) async throws {
        let expected = try await Self.library(canonical).openings.map(\.url)
        #expect(!expected.isEmpty)
        #expect(try await Self.library(variant).openings.map(\.url) == expected)
        let app = try await Self.application()
        try await app.test(.router) { client in
            for link in [variant, canonical] {
                try await client.execute(uri: Self.query(link), method: .get) { response in
                    #expect(response.status == .ok)
                    let body = try Self.json(response.body)
                    #expect(body["unwrapped"] as? String == canonical)
                    let openings = try #require(body["openings"] as? [[String: Any]])
                    #expect(openings.map { $0["url"] as? String } == expected)
                }
            }
        }
    }

    @Test func aRedirectValueThatDoesNotDecodeIsARefusedStep() async throws {
        let (link, reason) = LinkClassCases.undecodable
        let library = try await Self.library(link)
        #expect(library.unwrapped == link)
        #expect(library.steps.first?.refused?.contains(reason) == true)
        let app = try await Self.application()
        try await app.test(.router) { client in
            try await client.execute(uri: Self.query(link), method: .get) { response in
                #expect(response.status == .ok)
                let body = try Self.json(response.body)
                #expect(body["unwrapped"] as? String == link)
                let steps = try #require(body["steps"] as? [[String: Any]])
                #expect(steps.map { $0["kind"] as? String } == ["wrapper", "redirect-rule"])
                for step in steps {
                    #expect(step["to"] == nil)
                    #expect((step["refused"] as? String)?.contains(reason) == true, "\(steps)")
                }
            }
        }
    }

    @Test func noAnswerCarriesRawInvisibleCharacters() async throws {
        let link = LinkClassCases.spoofing
        let library = try await Self.library(link)
        #expect(!library.openings.isEmpty)
        for url in library.openings.compactMap(\.url) { #expect(!LinkClassCases.hasInvisibleFormatCharacter(url)) }
        let app = try await Self.application()
        try await app.test(.router) { client in
            try await client.execute(uri: Self.query(link), method: .get) { response in
                #expect(response.status == .ok)
                let text = String(buffer: response.body)
                // JSON may escape them as \u202E: decode before looking.
                let body = try Self.json(response.body)
                let openings = try #require(body["openings"] as? [[String: Any]])
                #expect(!openings.isEmpty)
                for opening in openings {
                    #expect(!LinkClassCases.hasInvisibleFormatCharacter(opening["url"] as? String ?? ""), "\(text)")
                }
                #expect(!LinkClassCases.hasInvisibleFormatCharacter(body["unwrapped"] as? String ?? ""))
            }
        }
    }

    /// The acceptance case of the issue, through the API: `/short/a` → 301 `/short/b` → 302 a tweet resolves to the
    /// tweet's openings with both hops in the steps, and the tweet itself is never fetched.
    @Test func aShortLinkIsUnwrappedHopByHopAndStopsAtTheFirstMatch() async throws {
        let tweet = "https://twitter.com/jack/status/20"
        let server = try await LoopbackHTTPServer.redirecting([
            "/short/a": ("/short/b", 301), "/short/b": (tweet, 302),
        ])
        defer { Task { await server.stop() } }
        let expected = try await Self.library(tweet).openings.map(\.url)
        let app = try await Self.application(networkEnabled: true, allowPrivateAddresses: true)
        try await app.test(.router) { client in
            try await client.execute(uri: Self.query(server.url("/short/a")), method: .get) { response in
                #expect(response.status == .ok)
                let body = try Self.json(response.body)
                #expect(body["unwrapped"] as? String == tweet)
                let steps = try #require(body["steps"] as? [[String: Any]])
                #expect(steps.map { $0["to"] as? String } == [server.url("/short/b"), tweet])
                #expect(steps.map { $0["rule"] as? String } == ["HEAD 301", "HEAD 302"])
                let openings = try #require(body["openings"] as? [[String: Any]])
                #expect(openings.map { $0["url"] as? String } == expected)
                #expect(openings.contains { ($0["url"] as? String)?.hasPrefix("twitter://") == true })
            }
        }
        #expect(server.requests.map(\.path) == ["/short/a", "/short/b"])
    }

    @Test func scriptRequestsAreBoundedByTheConfiguration() async throws {
        let server = try await LoopbackHTTPServer.start { _ in .text("ok") }
        defer { Task { await server.stop() } }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let manifest = directory.appendingPathComponent("rules.json")
        let port = server.port
        try Data(
            #"""
            {"apps": [{"identifier": "app", "name": "App", "scheme": "app"}],
             "actions": [{"title": "Count", "regex": "^http://127\\.0\\.0\\.1:\#(port)/item$",
               "formats": [{"appId": "app", "script2": "function process(u, c) { for (var i = 0; i < 3; i++) httpRequest('http://127.0.0.1:\#(port)/count'); c('app://counted'); }"}]}]}
            """#.utf8
        ).write(to: manifest)
        let app = try await SwitchyardServer(
            configuration: ServerConfiguration(
                port: 0,
                manifest: .file(manifest.path),
                networkEnabled: true,
                allowPrivateAddresses: true,
                maximumScriptRequests: 2
            )
        ).application()
        try await app.test(.router) { client in
            try await client.execute(uri: Self.query(server.url("/item")), method: .get) { response in
                #expect(response.status == .ok)
                let opening = try #require(try Self.json(response.body)["openings"] as? [[String: Any]]).first
                #expect((opening?["error"] as? [String: Any])?["code"] as? String == "E_TOO_MANY_SUBREQUESTS")
            }
        }
        // The script asks for the same URL three times: the limit counts each call, the network sees one request
        // (identical requests of one resolution are made once).
        #expect(server.requests.count == 1)
    }

    @Test func aRedirectLoopIsARefusedStepAfterTwoRequests() async throws {
        let server = try await LoopbackHTTPServer.redirecting(["/a": ("/b", 302), "/b": ("/a", 302)])
        defer { Task { await server.stop() } }
        let app = try await Self.application(networkEnabled: true, allowPrivateAddresses: true)
        try await app.test(.router) { client in
            try await client.execute(uri: Self.query(server.url("/a")), method: .get) { response in
                #expect(response.status == .ok)
                let body = try Self.json(response.body)
                let steps = try #require(body["steps"] as? [[String: Any]])
                #expect(steps.count == 2)
                #expect((steps.last?["refused"] as? String)?.contains("E_REDIRECT_LOOP") == true, "\(steps)")
                #expect(body["unwrapped"] as? String == server.url("/b"))
            }
        }
        #expect(server.requests.map(\.path) == ["/a", "/b"])
    }
}
