import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinkResolver
import LinkServer
import SwitchyardTestSupport
import Synchronization
import Testing

/// The network as a browser uses it (#28), through the server: one request per URL for all of a resolution's
/// scripts, answers from the HTTP cache while fresh, an answer built from fresh responses cacheable for as long as they
/// stay fresh, a host's `Retry-After` honoured and said on each opening it affects, a stale copy used when the
/// upstream fails and said in a notice.
@Suite struct OnlineCachingTests {
    /// A stand-in for song.link's API on 127.0.0.1: each request's answer comes from `answer`, which sees how many
    /// requests came before it.
    final class StandIn: Sendable {
        let server: LoopbackHTTPServer

        init(_ answer: @escaping @Sendable (Int) -> LoopbackHTTPServer.Response) async throws {
            let count = Mutex(0)
            server = try await LoopbackHTTPServer.start { _ in
                let number = count.withLock { value in
                    value += 1
                    return value
                }
                return answer(number)
            }
        }

        var requestCount: Int { server.requestCount }
    }

    static let platforms = [
        "appleMusic", "spotify", "youtubeMusic", "tidal", "deezer", "amazonMusic", "pandora", "soundcloud",
    ]

    /// song.link's answer shape, every platform present.
    static let body =
        #"{"linksByPlatform": {"#
        + platforms.map { #""\#($0)": {"nativeAppUriMobile": "\#($0.lowercased())://track/1"}"# }
        .joined(separator: ", ") + "}}"

    /// Eight formats of one Spotify action, each script asking the stand-in for the same URL, as the v5 manifest's
    /// eight music scripts ask song.link.
    static func manifest(port: Int) -> String {
        let apps = platforms.map { #"{"identifier": "\#($0)", "name": "\#($0)", "scheme": "\#($0.lowercased())"}"# }
        let formats = platforms.map { platform in
            #"{"appId": "\#(platform)", "script2": "function process(url, done) { var res = jsonRequest('http://127.0.0.1:\#(port)/v1-alpha.1/links?url=' + encodeURIComponent(url)); done(res && res.linksByPlatform && res.linksByPlatform.\#(platform) ? res.linksByPlatform.\#(platform).nativeAppUriMobile : null); }"}"#
        }
        return
            #"{"apps": [\#(apps.joined(separator: ", "))], "actions": [{"title": "Play", "regex": "^https://open\\.spotify\\.com/track/(\\w+)", "formats": [\#(formats.joined(separator: ", "))]}]}"#
    }

    static func server(_ manifest: String) async throws -> (SwitchyardServer, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("online-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("rules.json").path
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: path))
        var configuration = ServerConfiguration(
            port: 0,
            manifest: .file(path),
            networkEnabled: true,
            allowPrivateAddresses: true
        )
        configuration.cacheMaxAge = .seconds(600)
        return (try await SwitchyardServer(configuration: configuration), directory)
    }

    static let query = "/v1/resolve?url=" + "https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC"

    static func urls(_ response: TestResponse) throws -> [String?] {
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any]
        )
        return try #require(document["openings"] as? [[String: Any]]).map { $0["url"] as? String }
    }

    static func maxAge(_ response: TestResponse) -> Int? {
        guard let control = response.headers[.cacheControl], let range = control.range(of: "max-age=") else {
            return nil
        }
        return Int(control[range.upperBound...].prefix { $0.isNumber })
    }

    @Test func threeResolutionsWithinTheAnswersMaxAgeSendOneRequestAndAreCacheable() async throws {
        let standIn = try await StandIn { _ in
            .text(
                Self.body,
                headers: [.init("Content-Type", "application/json"), .init("Cache-Control", "max-age=300")]
            )
        }
        defer { Task { await standIn.server.stop() } }
        let (server, directory) = try await Self.server(Self.manifest(port: standIn.server.port))
        defer { try? FileManager.default.removeItem(at: directory) }
        try await server.application().test(.router) { client in
            for round in 0..<3 {
                let response = try await client.execute(uri: Self.query, method: .get)
                #expect(response.status == .ok)
                #expect(try Self.urls(response).compactMap { $0 }.count == 8, "round \(round)")
                #expect(response.headers[.cacheControl] != "no-store")
                let maxAge = try #require(Self.maxAge(response))
                #expect(maxAge > 0 && maxAge <= 300, "round \(round): \(maxAge)")
                #expect(response.headers[.eTag] != nil)
            }
            // The server's metrics count what was sent to each upstream host, and what its cache answered.
            let metrics = try await client.execute(uri: "/metrics", method: .get) { String(buffer: $0.body) }
            let host = "127.0.0.1:\(standIn.server.port)"
            #expect(metrics.contains(#"switchyard_fetch_requests_total{host="\#(host)"} 1"#), "\(metrics)")
            #expect(metrics.contains(#"switchyard_fetch_cache_total{host="\#(host)",status="hit"}"#))
        }
        #expect(standIn.requestCount == 1)
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func theV5ManifestsSpotifyLinkSendsOneRequestToSongLink() async throws {
        let standIn = try await StandIn { _ in
            .text(
                Self.body,
                headers: [.init("Content-Type", "application/json"), .init("Cache-Control", "max-age=300")]
            )
        }
        defer { Task { await standIn.server.stop() } }
        // Every endpoint the Spotify link's scripts call (song.link's API, and Spotify's oEmbed for the preview) is the
        // stand-in.
        let manifest = String(decoding: try SharedData.data("openerManifest-v5.json"), as: UTF8.self)
            .replacingOccurrences(of: "https://api.song.link", with: "http://127.0.0.1:\(standIn.server.port)")
            .replacingOccurrences(of: "https://embed.spotify.com", with: "http://127.0.0.1:\(standIn.server.port)")
        let (server, directory) = try await Self.server(manifest)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await server.application().test(.router) { client in
            for _ in 0..<3 {
                let response = try await client.execute(uri: Self.query, method: .get)
                #expect(response.status == .ok)
                #expect(response.headers[.cacheControl] != "no-store", "\(response.headers[.cacheControl] ?? "")")
            }
        }
        let paths = standIn.server.requests.map(\.path)
        #expect(paths.filter { $0 == "/v1-alpha.1/links" }.count == 1, "\(paths)")
        #expect(paths.count == 2, "song.link once, the oEmbed once: \(paths)")
    }

    @Test func aHostThatAsksToBeLeftAloneIsLeftAloneAndEachOpeningSaysSo() async throws {
        let standIn = try await StandIn { _ in
            .text("slow down", status: 429, headers: [.init("Retry-After", "120")])
        }
        defer { Task { await standIn.server.stop() } }
        let (server, directory) = try await Self.server(Self.manifest(port: standIn.server.port))
        defer { try? FileManager.default.removeItem(at: directory) }
        try await server.application().test(.router) { client in
            _ = try await client.execute(uri: Self.query, method: .get)
            let second = try await client.execute(uri: Self.query, method: .get)
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(second.body.readableBytesView)) as? [String: Any]
            )
            let openings = try #require(document["openings"] as? [[String: Any]])
            #expect(openings.count == 8)
            for opening in openings {
                let error = try #require(opening["error"] as? [String: Any])
                #expect(error["code"] as? String == "E_BACKED_OFF")
                #expect((error["message"] as? String)?.contains("127.0.0.1") == true)
            }
            #expect(second.headers[.cacheControl] == "no-store")
        }
        #expect(standIn.requestCount == 1, "the backed-off host was not asked again")
    }

    @Test func theLastGoodAnswerIsUsedWhenTheUpstreamFailsAndTheAnswerSaysSo() async throws {
        // Stale at once (max-age=0, but may be used stale if the server errs), then the server fails.
        let standIn = try await StandIn { number in
            number == 1
                ? .text(
                    Self.body,
                    headers: [
                        .init("Content-Type", "application/json"),
                        .init("Cache-Control", "max-age=0, stale-if-error=600"),
                    ]
                )
                : .text("down", status: 503)
        }
        defer { Task { await standIn.server.stop() } }
        let (server, directory) = try await Self.server(Self.manifest(port: standIn.server.port))
        defer { try? FileManager.default.removeItem(at: directory) }
        try await server.application().test(.router) { client in
            let first = try await client.execute(uri: Self.query, method: .get)
            #expect(
                first.headers[.cacheControl] == "no-store",
                "a response fresh for no time makes no cacheable answer"
            )
            let second = try await client.execute(uri: Self.query, method: .get)
            #expect(try Self.urls(second).compactMap { $0 }.count == 8)
            let document = try #require(
                try JSONSerialization.jsonObject(with: Data(second.body.readableBytesView)) as? [String: Any]
            )
            let notices = try #require(document["notices"] as? [[String: Any]])
            #expect(notices.map { $0["code"] as? String } == [Resolver.staleAnswer])
            #expect(second.headers[.cacheControl] == "no-store")
        }
        #expect(standIn.requestCount == 2)
    }
}
