import AppChooser
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinkCleaning
import LinkResolver
import LinkServer
import SwitchyardTestSupport
import Testing

/// An answer's entity tag is derived from the resolution's cache key: it changes with each field of the request and
/// each stage's identity, and stays equal for an equal request however it is spelt.
@Suite struct EntityTagTests {
    /// A query parameter that changes each request field (the trace is `/v1/explain`'s; headers come in a batch body
    /// only, which is never tagged).
    static let variants: [ResolveRequest.Field: String] = [
        .installed: "installed=a", .platform: "platform=pad", .source: "source=com.tinyspeck.chatlyio",
        .browsers: "browsers=false", .previews: "previews=false", .regexTimeLimit: "regexTimeLimit=0.01",
        .regexTimeShare: "regexTimeShare=0.1", .scripts: "scripts=false", .timeout: "timeout=1",
        .trace: "trace=true", .maximumLinkLength: "maximumLinkLength=100", .clean: "clean=false",
        .referralMarketing: "referralMarketing=true", .claims: "claims=false", .openWrapped: "openWrapped=true",
        .followPages: "followPages=true", .refreshDelay: "refreshDelay=30",
    ]

    static func server(cleaner: LinkCleaner? = nil, choices: ChoicesStore? = nil) async throws -> SwitchyardServer {
        var configuration = ServerConfiguration(port: 0, networkEnabled: false)
        configuration.cleaner = cleaner
        configuration.choices = choices
        return try await SwitchyardServer(configuration: configuration)
    }

    static func tag(_ server: SwitchyardServer, _ query: String) async throws -> String {
        try await server.application().test(.router) { client in
            try await client.execute(uri: "/v1/resolve?url=https://twitter.com/jack&" + query, method: .get) {
                response in
                #expect(response.status == .ok, "\(query)")
                return response.headers[.eTag] ?? ""
            }
        }
    }

    @Test func everyFieldOfTheRequestChangesTheTag() async throws {
        #expect(Set(Self.variants.keys) == Set(ResolveRequest.Field.allCases).subtracting([.headers]))
        let server = try await Self.server()
        let plain = try await Self.tag(server, "")
        #expect(!plain.isEmpty)
        var tags: Set<String> = [plain]
        for (field, query) in Self.variants.sorted(by: { $0.key.stringValue < $1.key.stringValue }) {
            let tag = try await Self.tag(server, query)
            #expect(!tag.isEmpty && !tags.contains(tag), "\(field) does not reach the entity tag")
            tags.insert(tag)
        }
    }

    @Test func anEqualRequestSpeltAnotherWayHasTheSameTag() async throws {
        let server = try await Self.server()
        #expect(
            try await Self.tag(server, "installed=B:,a&platform=PAD&clean=true")
                == Self.tag(server, "platform=pad&installed=a,b")
        )
        // The server's own limits are the defaults: asking for them is the same request.
        #expect(try await Self.tag(server, "timeout=5") == Self.tag(server, ""))
        #expect(try await Self.tag(server, "timeout=60") == Self.tag(server, ""))
    }

    @Test func eachStagesIdentityChangesTheTag() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tags-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try ChoicesStore(path: directory.appendingPathComponent("choices.sqlite").path)
        let catalog = #"{"providers": {"x": {"urlPattern": "^https?://x\\.example", "rules": ["utm_source"]}}}"#
        let other = catalog.replacingOccurrences(of: "utm_source", with: "fbclid")
        let bare = try await Self.tag(try await Self.server(), "")
        let cleaning = try await Self.tag(try await Self.server(cleaner: try LinkCleaner(json: catalog)), "")
        let otherCleaning = try await Self.tag(try await Self.server(cleaner: try LinkCleaner(json: other)), "")
        #expect(Set([bare, cleaning, otherCleaning]).count == 3)
        let withStore = try await Self.server(choices: store)
        let before = try await Self.tag(withStore, "")
        #expect(try await Self.tag(withStore, "") == before)
        try store.rememberSite("twitter.com", app: "x")
        #expect(try await Self.tag(withStore, "") != before)
    }
}
