import DomainClaimsStage
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinkFetching
import LinkFetchingHTTP
import LinkResolution
import LinkResolver
import SwitchyardTestSupport
import Testing

@testable import LinkServer

/// `serve --claims` against a loopback TLS stand-in for `https://example.com`: `GET /v1/claims` answers the claims
/// document (valid against `/openapi.json`), `/v1/resolve` lists the claimed apps unless `claims=false`, and the
/// answer's `max-age` follows the files'.
@Suite(.serialized) struct ClaimsRoutesTests {
    static func server(site: ClaimsTestSite) async throws -> SwitchyardServer {
        var configuration = ServerConfiguration(port: 0, networkEnabled: true, allowPrivateAddresses: true)
        var policy = NetworkPolicy(allowPrivateAddresses: true)
        policy.connectTo = [try #require(ConnectionOverride(parsing: site.server.connectTo()))]
        configuration.upstream = try LiveFetcher(
            policy: policy,
            trustingPEM: Array(site.certificates.authorityPEM.utf8)
        )
        configuration.openingStages = [DomainClaimsStage()]
        configuration.cacheMaxAge = .seconds(3600)
        return try await SwitchyardServer(configuration: configuration)
    }

    @Test func claimsAnswersTheClaimsDocumentAsDescribed() async throws {
        let site = try await ClaimsTestSite.start([
            ClaimsTestSite.aasaPath: .json(ClaimsTestSite.aasa, cacheControl: "max-age=120"),
            ClaimsTestSite.assetLinksPath: .json(ClaimsTestSite.assetLinks, cacheControl: "max-age=600"),
        ])
        defer { Task { await site.stop() } }
        try await Self.server(site: site).application().test(.router) { client in
            let specification = try await OpenAPITests.specification(client)
            let validator = SchemaValidator(specification: specification)
            try await client.execute(uri: "/v1/claims?url=https%3A%2F%2Fexample.com%2Fbuy%2F42", method: .get) {
                response in
                #expect(response.status == .ok)
                let document = try #require(try OpenAPITests.object(response.body) as? [String: Any])
                let schema = ["$ref": "#/components/schemas/ClaimsReport"]
                #expect(validator.problems(document, against: schema).isEmpty)
                let universal = try #require((document["universalLinks"] as? [[String: Any]])?.first)
                #expect(universal["appID"] as? String == ClaimsTestSite.appID)
                let files = try #require(document["files"] as? [[String: Any]])
                #expect(
                    files.map { $0["url"] as? String } == [
                        "https://example.com/.well-known/apple-app-site-association",
                        "https://example.com/.well-known/assetlinks.json",
                    ]
                )
                // Kept no longer than the AASA file's two minutes.
                let control = try #require(response.headers[.cacheControl])
                #expect(control.hasPrefix("public, max-age=1"), "\(control)")
            }
            try await client.execute(uri: "/v1/resolve?url=https%3A%2F%2Fexample.com%2Fbuy%2F42", method: .get) {
                response in
                let document = try #require(try OpenAPITests.object(response.body) as? [String: Any])
                #expect(validator.problems(document, against: ["$ref": "#/components/schemas/Resolution"]).isEmpty)
                let kinds = (document["openings"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
                #expect(kinds.contains("universal-link") && kinds.contains("app-link"), "\(kinds)")
            }
            try await client.execute(
                uri: "/v1/explain?url=https%3A%2F%2Fexample.com%2Fbuy%2F42&claims=false",
                method: .get
            ) { response in
                let document = try #require(try OpenAPITests.object(response.body) as? [String: Any])
                let kinds = (document["openings"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
                #expect(!kinds.contains("universal-link"))
                #expect((document["trace"] as? [String: Any])?["claims"] == nil)
            }
            try await client.execute(uri: "/v1/explain?url=https%3A%2F%2Fexample.com%2Fbuy%2F42", method: .get) {
                response in
                let document = try #require(try OpenAPITests.object(response.body) as? [String: Any])
                #expect(validator.problems(document, against: ["$ref": "#/components/schemas/Resolution"]).isEmpty)
                let claims = try #require((document["trace"] as? [String: Any])?["claims"] as? [[String: Any]])
                #expect(claims.count == 2)
            }
        }
        // The files were asked once: the HTTP cache answered the later resolutions.
        #expect(site.requests(for: ClaimsTestSite.aasaPath) == 1)
    }

    /// The claims answer's tag is derived from the resolver's key (rules, network, the claims stage, the link), as a
    /// resolution's is: the same link has the same tag, another link another, and the tag makes a `304`.
    @Test func claimsAreTaggedByTheResolversKey() async throws {
        let site = try await ClaimsTestSite.start([
            ClaimsTestSite.aasaPath: .json(ClaimsTestSite.aasa, cacheControl: "max-age=120"),
            ClaimsTestSite.assetLinksPath: .json(ClaimsTestSite.assetLinks, cacheControl: "max-age=600"),
        ])
        defer { Task { await site.stop() } }
        let server = try await Self.server(site: site)
        let key = server.rules.store.current.resolver.cacheKey(
            for: "https://example.com/buy/42",
            lookup: DomainClaimsStage()
        )
        #expect(key.parts.dropFirst(2) == ["lookup:domain-claims/1", "input:https://example.com/buy/42"])
        try await server.application().test(.router) { client in
            func tag(_ path: String, _ link: String) async throws -> String {
                try await client.execute(uri: "\(path)?url=\(link)", method: .get) { response in
                    #expect(response.status == .ok)
                    return try #require(response.headers[.eTag], "\(path)?url=\(link)")
                }
            }
            let claims = try await tag("/v1/claims", "https%3A%2F%2Fexample.com%2Fbuy%2F42")
            #expect(try await tag("/v1/claims", "https%3A%2F%2Fexample.com%2Fbuy%2F42") == claims)
            #expect(try await tag("/v1/claims", "https%3A%2F%2Fexample.com%2Fbuy%2F43") != claims)
            try await client.execute(
                uri: "/v1/claims?url=https%3A%2F%2Fexample.com%2Fbuy%2F42",
                method: .get,
                headers: [.ifNoneMatch: "W/\(claims)"]
            ) { response in
                #expect(response.status == .notModified)
                #expect(response.headers[.eTag] == claims)
            }
        }
    }
}
