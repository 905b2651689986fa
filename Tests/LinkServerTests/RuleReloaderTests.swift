import Foundation
import Hummingbird
import HummingbirdTesting
import LinkMatching
import LinkResolver
import LinkServer
import SwitchyardTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The reloader as a service of the running application: a file change and SIGHUP each bring a new generation.
@Suite struct RuleReloaderTests {
    static let rules =
        #"{"apps": [{"identifier": "a", "name": "A", "scheme": "a"}], "actions": [{"regex": "https://a\\.example/(\\d+)", "formats": [{"appId": "a", "format": "FORMAT"}]}]}"#

    static func generation(_ client: some TestClientProtocol) async throws -> Int {
        try await client.execute(uri: "/healthz", method: .get) { response in
            let object = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
            return try #require((object as? [String: Any])?["generation"] as? Int)
        }
    }

    /// Polls `/healthz` until the generation is `number` (or 10 s pass).
    static func waitForGeneration(_ number: Int, _ client: some TestClientProtocol) async throws -> Int {
        var seen = try await generation(client)
        let deadline = ContinuousClock.now + .seconds(10)
        while seen < number, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            seen = try await generation(client)
        }
        return seen
    }

    /// A server over the manifest `file`, its reloader looking at it every 50 ms.
    static func server(watching file: URL) async throws -> SwitchyardServer {
        try await SwitchyardServer(
            configuration: ServerConfiguration(
                port: 0,
                manifest: .file(file.path),
                reloadInterval: .milliseconds(50),
                networkEnabled: false
            )
        )
    }

    @Test func reloadsWhenTheFileChangesAndOnSIGHUP() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reloader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("rules.json")
        try Data(Self.rules.replacingOccurrences(of: "FORMAT", with: "a://$1").utf8).write(to: file)
        let server = try await Self.server(watching: file)
        try await server.application(reloadsOnHangUp: true).test(.router) { client in
            #expect(try await Self.generation(client) == 1)
            // A longer file: the signature differs even where modification times are coarse.
            try Data(Self.rules.replacingOccurrences(of: "FORMAT", with: "app://$1").utf8).write(
                to: file,
                options: .atomic
            )
            #expect(try await Self.waitForGeneration(2, client) == 2)
            #expect(try server.rules.store.rules.resolve("https://a.example/7").openings.first?.url == "app://7")
            // SIGHUP is trapped since application(reloadsOnHangUp: true) returned.
            kill(getpid(), SIGHUP)
            #expect(try await Self.waitForGeneration(3, client) == 3)
            try await Task.sleep(for: .milliseconds(200))
            #expect(try await Self.generation(client) == 3, "a reload without a change or a signal")
            try await client.execute(uri: "/metrics", method: .get) { response in
                #expect(String(buffer: response.body).contains(#"switchyard_rule_reloads_total{outcome="accepted"} 2"#))
            }
        }
    }

    /// A manifest file rewritten with the same bytes (a new signature, the same manifest) is no new generation, and the
    /// change after it still is one.
    @Test func aFileRewrittenAsItWasIsNoNewGeneration() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reloader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("rules.json")
        let original = Data(Self.rules.replacingOccurrences(of: "FORMAT", with: "a://$1").utf8)
        try original.write(to: file)
        let server = try await Self.server(watching: file)
        try await server.application().test(.router) { client in
            #expect(try await Self.generation(client) == 1)
            let before = server.rules.store.fileSignature
            try await Task.sleep(for: .milliseconds(20))
            try original.write(to: file, options: .atomic)
            #expect(FileSignature.of(file.path) != before)
            // Several ticks: the new signature is taken in, the generation stays.
            let deadline = ContinuousClock.now + .seconds(5)
            while server.rules.store.fileSignature == before, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(server.rules.store.fileSignature != before, "the rewritten file was never looked at")
            try await Task.sleep(for: .milliseconds(200))
            #expect(try await Self.generation(client) == 1)
            try Data(Self.rules.replacingOccurrences(of: "FORMAT", with: "app://$1").utf8).write(
                to: file,
                options: .atomic
            )
            #expect(try await Self.waitForGeneration(2, client) == 2)
        }
    }
}
