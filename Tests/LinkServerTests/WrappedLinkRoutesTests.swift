import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinkResolver
import LinkServer
import SwitchyardTestSupport
import Testing

/// Wrapped links over HTTP: decoded offline before the rules see them; `openWrapped=true` in the query string and
/// `"openWrapped": true` in a batch body (the one request decoding) send browsers to the wrapped link; explain's
/// trace says the gateway is bypassed for app openings.
@Suite struct WrappedLinkRoutesTests {
    static func server() async throws -> (SwitchyardServer, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wrap-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let manifest = directory.appendingPathComponent("rules.json")
        let rules = RuleFixture.text(
            actions:
                #"[{"regex": "^https://a\\.example/(\\w+)$", "formats": [{"appId": "alpha", "format": "a://$1"}]}]"#,
            browsers:
                #"[{"identifier": "web", "name": "Web", "scheme": "web", "regex": "^(https?://.*)$", "format": "web:$1"}]"#
        )
        try Data(rules.utf8).write(to: manifest)
        let configuration = ServerConfiguration(port: 0, manifest: .file(manifest.path), networkEnabled: false)
        return (try await SwitchyardServer(configuration: configuration), directory)
    }

    static func document(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
    }

    static func urls(_ document: [String: Any]) -> [String] {
        (document["openings"] as? [[String: Any]] ?? []).compactMap { $0["url"] as? String }
    }

    static let wrapped = "https://l.facebook.com/l.php?u=https%3A%2F%2Fa.example%2Fitem&h=AT0"

    @Test func theQueryAndTheBodyDecideWhichLinkBrowsersOpen() async throws {
        let (server, directory) = try await Self.server()
        defer { try? FileManager.default.removeItem(at: directory) }
        let uri = "/v1/resolve?url=" + WrappedLinks.encode(Self.wrapped)
        try await server.application().test(.router) { client in
            let innerTag = try await client.execute(uri: uri, method: .get) { response in
                let document = try Self.document(response)
                #expect(document["unwrapped"] as? String == "https://a.example/item")
                #expect(Self.urls(document) == ["a://item", "web:https://a.example/item"])
                let steps = try #require(document["steps"] as? [[String: Any]])
                #expect(steps.first?["kind"] as? String == "wrapper")
                #expect(steps.first?["rule"] as? String == "Facebook link shim")
                return try #require(response.headers[.eTag])
            }
            let wrappedTag = try await client.execute(uri: uri + "&openWrapped=true", method: .get) { response in
                #expect(Self.urls(try Self.document(response)) == ["a://item", "web:" + Self.wrapped])
                return try #require(response.headers[.eTag])
            }
            #expect(innerTag != wrappedTag)
            try await client.execute(uri: uri + "&openWrapped=yes", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("E_OPEN_WRAPPED"))
                #expect(String(buffer: response.body).contains(#"openWrapped= takes true or false, not \"yes\""#))
            }
            let body = #"{"urls": ["\#(Self.wrapped)"], "openWrapped": true}"#
            try await client.execute(
                uri: "/v1/resolve",
                method: .post,
                headers: [.contentType: "application/json"],
                body: ByteBuffer(string: body)
            ) { response in
                let document = try Self.document(response)
                let result = try #require((document["results"] as? [[String: Any]])?.first)
                #expect(Self.urls(result) == ["a://item", "web:" + Self.wrapped])
            }
        }
    }

    @Test func explainSaysTheGatewayIsBypassedForAppOpenings() async throws {
        let (server, directory) = try await Self.server()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await server.application().test(.router) { client in
            try await client.execute(uri: "/v1/explain?url=" + WrappedLinks.encode(Self.wrapped), method: .get) {
                response in
                let trace = try #require(try Self.document(response)["trace"] as? [String: Any])
                let gateway = try #require(trace["gateway"] as? [String: Any])
                #expect(gateway["wrappers"] as? [String] == ["Facebook link shim"])
                #expect(gateway["bypassed"] as? [String] == ["action alpha /actions/0/formats/0"])
                #expect(gateway["browsersOpenWrapped"] as? Bool == false)
            }
        }
    }
}
