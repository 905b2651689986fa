import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinkCleaning
import LinkResolver
import LinkServer
import SwitchyardTestSupport
import Testing

/// `serve --clean-rules`: the resolution routes clean links first unless `clean=false`; the tags tell them apart.
@Suite struct CleaningRoutesTests {
    static let catalog = #"""
        {"providers": {"shop": {"urlPattern": "^https?:\\/\\/(?:[a-z0-9-]+\\.)*?shop\\.example",
          "completeProvider": false, "rules": ["utm_[a-z]+"], "referralMarketing": [], "exceptions": [],
          "rawRules": [], "redirections": []}}}
        """#

    static func server() async throws -> (SwitchyardServer, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("clean-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let manifest = directory.appendingPathComponent("rules.json")
        let rules = RuleFixture.text(
            actions:
                #"[{"regex": "^https://shop\\.example/(\\d+)$", "formats": [{"appId": "alpha", "format": "s://$1"}]}]"#
        )
        try Data(rules.utf8).write(to: manifest)
        var configuration = ServerConfiguration(port: 0, manifest: .file(manifest.path), networkEnabled: false)
        configuration.cleaner = try LinkCleaner(json: Self.catalog)
        return (try await SwitchyardServer(configuration: configuration), directory)
    }

    static func document(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
    }

    @Test func resolutionsAreCleanedUnlessTheRequestSaysNo() async throws {
        let (server, directory) = try await Self.server()
        defer { try? FileManager.default.removeItem(at: directory) }
        let uri = "/v1/resolve?url=https%3A%2F%2Fshop.example%2F7%3Futm_source%3Dfeed"
        try await server.application().test(.router) { client in
            let cleanTag = try await client.execute(uri: uri, method: .get) { response in
                let document = try Self.document(response)
                #expect(document["unwrapped"] as? String == "https://shop.example/7")
                let steps = try #require(document["steps"] as? [[String: Any]])
                #expect(steps.first?["kind"] as? String == "clean")
                #expect((steps.first?["details"] as? [String])?.first?.contains("utm_source=feed") == true)
                return try #require(response.headers[.eTag])
            }
            let plainTag = try await client.execute(uri: uri + "&clean=false", method: .get) { response in
                let document = try Self.document(response)
                #expect(document["unwrapped"] as? String == "https://shop.example/7?utm_source=feed")
                #expect((document["openings"] as? [Any])?.isEmpty == true)
                return try #require(response.headers[.eTag])
            }
            #expect(cleanTag != plainTag)
            try await client.execute(uri: uri + "&clean=maybe", method: .get) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("E_CLEAN"))
            }
            try await client.execute(
                uri: "/v1/resolve",
                method: .post,
                body: ByteBuffer(string: #"{"urls": ["https://shop.example/7?utm_source=feed"], "clean": false}"#)
            ) { response in
                #expect(String(buffer: response.body).contains("utm_source=feed"))
                #expect(!String(buffer: response.body).contains(#""kind":"clean""#))
            }
            try await client.execute(uri: uri.replacingOccurrences(of: "resolve", with: "explain"), method: .get) {
                response in
                #expect(String(buffer: response.body).contains(#""kind":"clean""#))
            }
        }
    }
}
