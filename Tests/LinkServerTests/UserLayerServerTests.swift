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

/// `serve --user-layer`: the layer over the served rules, `source=`, its tests, and its reloads.
@Suite struct UserLayerServerTests {
    static let manifest = RuleFixture.text(
        actions: #"""
            [{"regex": "^https://a\\.example/(\\d+)$", "testInputs": ["https://a.example/1"],
              "formats": [{"appId": "alpha", "format": "A://$1", "testResults": ["A://1"]},
                          {"appId": "beta", "format": "beta://$1", "testResults": ["beta://1"]}]}]
            """#,
        browsers:
            #"[{"identifier": "web", "name": "Web", "scheme": "web", "regex": "^(https?://.*)$", "format": "web:$1"}]"#
    )
    static let layer = #"""
        {"switchyardUserLayer": 1, "hide": ["beta"],
         "when": [{"sourceApps": ["com.tinyspeck.*"], "browserOnly": true}],
         "actions": [{"regex": "^https://a\\.example/(\\d+)$", "testInputs": ["https://a.example/2"],
                      "formats": [{"appId": "alpha", "format": "mine://$1", "testResults": ["mine://2"]}]}]}
        """#

    /// A folder with `rules.json` and `layer.json`, removed by the caller.
    static func files() throws -> (directory: URL, manifest: URL, layer: URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let manifest = directory.appendingPathComponent("rules.json")
        let layer = directory.appendingPathComponent("layer.json")
        try Data(Self.manifest.utf8).write(to: manifest)
        try Data(Self.layer.utf8).write(to: layer)
        return (directory, manifest, layer)
    }

    static func server(_ files: (directory: URL, manifest: URL, layer: URL)) async throws -> SwitchyardServer {
        var configuration = ServerConfiguration(
            port: 0,
            manifest: .file(files.manifest.path),
            reloadInterval: .milliseconds(50),
            networkEnabled: false
        )
        configuration.userLayer = files.layer.path
        return try await SwitchyardServer(configuration: configuration)
    }

    static func urls(_ rules: RuleSet, _ link: String = "https://a.example/7") throws -> [String] {
        try rules.resolve(link).openings.compactMap(\.url)
    }

    static func openingURLs(_ response: TestResponse) -> [String] {
        let object = try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
        let openings = (object as? [String: Any])?["openings"] as? [[String: Any]] ?? []
        return openings.compactMap { $0["url"] as? String }
    }

    @Test func resolvesWithTheLayerAndTheSourceApp() async throws {
        let files = try Self.files()
        defer { try? FileManager.default.removeItem(at: files.directory) }
        let server = try await Self.server(files)
        try await server.application().test(.router) { client in
            try await client.execute(uri: "/v1/resolve?url=https%3A%2F%2Fa.example%2F7", method: .get) { response in
                #expect(Self.openingURLs(response) == ["mine://7", "A://7", "web:https://a.example/7"])
            }
            try await client.execute(
                uri: "/v1/resolve?url=https%3A%2F%2Fa.example%2F7&source=com.tinyspeck.chatlyio",
                method: .get
            ) { response in
                #expect(Self.openingURLs(response) == ["web:https://a.example/7"])
            }
            try await client.execute(uri: "/v1/resolve?url=https%3A%2F%2Fa.example%2F7&source=", method: .get) {
                response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("E_SOURCE_APP"))
            }
            try await client.execute(
                uri: "/v1/resolve",
                method: .post,
                body: ByteBuffer(string: #"{"urls": ["https://a.example/7"], "source": "com.tinyspeck.chatlyio"}"#)
            ) { response in
                #expect(String(buffer: response.body).contains(#""url":"web:https://a.example/7""#))
                #expect(!String(buffer: response.body).contains("mine://"))
            }
            try await client.execute(
                uri: "/v1/explain?url=https%3A%2F%2Fa.example%2F7&source=com.tinyspeck.chatlyio",
                method: .get
            ) { response in
                #expect(String(buffer: response.body).contains(#""effect":"browser only""#))
            }
            try await client.execute(uri: "/v1/tests", method: .get) { response in
                let object = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
                let layer = try #require((object as? [String: Any])?["userLayer"] as? [String: Any])
                #expect(layer["passed"] as? Int == 1 && layer["failed"] as? Int == 0)
                #expect(layer["file"] as? String == files.layer.path)
            }
        }
    }

    @Test func aManifestUpdateKeepsTheLayerAndABrokenLayerKeepsThePreviousOne() async throws {
        let files = try Self.files()
        defer { try? FileManager.default.removeItem(at: files.directory) }
        let server = try await Self.server(files)
        #expect(try Self.urls(server.rules.store.rules) == ["mine://7", "A://7", "web:https://a.example/7"])
        // The manifest changes: the layer's action and its hiding of beta are still there.
        try Data(Self.manifest.replacingOccurrences(of: "A://", with: "alpha://").utf8).write(to: files.manifest)
        #expect(await server.rules.reload(reason: "test"))
        #expect(try Self.urls(server.rules.store.rules) == ["mine://7", "alpha://7", "web:https://a.example/7"])
        // A broken layer is refused with its located error; the previous layer keeps serving.
        try Data(#"{"switchyardUserLayer": 1, "hide": "beta"}"#.utf8).write(to: files.layer)
        #expect(await server.rules.reload(reason: "test") == false)
        let rejection = try #require(server.rules.store.lastRejection)
        #expect(rejection.contains("\(files.layer.path): error: the user layer is refused"))
        #expect(try Self.urls(server.rules.store.rules) == ["mine://7", "alpha://7", "web:https://a.example/7"])
        // A layer file that is no JSON is refused at its line and column.
        try Data("{\"switchyardUserLayer\": 1,\n ]".utf8).write(to: files.layer)
        #expect(await server.rules.reload(reason: "test") == false)
        #expect(server.rules.store.lastRejection?.hasPrefix("\(files.layer.path):2:2: error: invalid JSON") == true)
        #expect(try Self.urls(server.rules.store.rules) == ["mine://7", "alpha://7", "web:https://a.example/7"])
    }

    /// The answers' entity tags name the layer and the source app: the same link from another app, or after the
    /// layer changed, is another document with another tag; a manifest reload that keeps the same layer and bytes
    /// keeps the tag.
    @Test func entityTagsFollowTheLayerAndTheSourceApp() async throws {
        let files = try Self.files()
        defer { try? FileManager.default.removeItem(at: files.directory) }
        let server = try await Self.server(files)
        let plain = "/v1/resolve?url=https%3A%2F%2Fa.example%2F7"
        let fromSlack = plain + "&source=com.tinyspeck.chatlyio"
        try await server.application().test(.router) { client in
            func tag(_ uri: String) async throws -> String {
                try await client.execute(uri: uri, method: .get) { response in try #require(response.headers[.eTag]) }
            }
            let first = try await tag(plain)
            #expect(try await tag(fromSlack) != first)
            #expect(await server.rules.reload(reason: "same files"))
            #expect(try await tag(plain) == first)
            try Data(#"{"switchyardUserLayer": 1, "hide": ["alpha"]}"#.utf8).write(to: files.layer)
            #expect(await server.rules.reload(reason: "layer changed"))
            let changed = try await tag(plain)
            #expect(changed != first)
            try await client.execute(uri: plain, method: .get, headers: [.ifNoneMatch: first]) { response in
                #expect(response.status == .ok)
                #expect(Self.openingURLs(response) == ["beta://7", "web:https://a.example/7"])
            }
        }
    }

    @Test func theReloaderAppliesAChangedLayerFile() async throws {
        let files = try Self.files()
        defer { try? FileManager.default.removeItem(at: files.directory) }
        let server = try await Self.server(files)
        try await server.application().test(.router) { _ in
            try Data(#"{"switchyardUserLayer": 1, "hide": ["alpha", "web"]}"#.utf8).write(
                to: files.layer,
                options: .atomic
            )
            let deadline = ContinuousClock.now + .seconds(10)
            while server.rules.store.generation < 2, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(server.rules.store.generation == 2)
            #expect(try Self.urls(server.rules.store.rules) == ["beta://7"])
        }
    }

    @Test func aBadLayerAtStartIsAnErrorWithItsLocatedDiagnostics() async throws {
        let files = try Self.files()
        defer { try? FileManager.default.removeItem(at: files.directory) }
        try Data(#"{"switchyardUserLayer": 1, "sites": [{"hosts": ["a/b"]}]}"#.utf8).write(to: files.layer)
        await #expect {
            try await Self.server(files)
        } throws: { error in
            guard let error = error as? RuleSetLoadError else { return false }
            return error.diagnostics.map(\.description) == [
                #"\#(files.layer.path):1:49: error: a host pattern cannot contain "/": write only the host, as in "example.com" [E_PATTERN at /sites/0/hosts/0]"#
            ]
        }
    }
}
