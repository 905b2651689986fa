import DomainClaimsStage
import Foundation
import LinkFetching
import LinkMatching
import LinkResolver
import LinkRules
import SwitchyardTestSupport
import Testing
import WebLinks

/// Asset-links includes read over the network, the user layer over claimed apps, several claimants, and the intent
/// URL of an App Link.
@Suite(.serialized) struct ClaimsIncludesAndLayerTests {
    /// A statement list that includes `next` (a path on the site), or trusts ``ClaimsTestSite/package`` when last.
    static func list(including next: String?) -> LoopbackHTTPServer.Response {
        guard let next else { return .json(ClaimsTestSite.assetLinks) }
        return .json(#"[{"include": "https://example.com\#(next)"}]"#)
    }

    @Test(arguments: [(depth: 5, claimed: true), (depth: 6, claimed: false)])
    func includesAreFollowedFiveDeep(depth: Int, claimed: Bool) async throws {
        var files: [String: LoopbackHTTPServer.Response] = [:]
        let paths = [ClaimsTestSite.assetLinksPath] + (1...depth).map { "/list\($0).json" }
        for (index, path) in paths.enumerated() {
            files[path] = Self.list(including: index + 1 < paths.count ? paths[index + 1] : nil)
        }
        let site = try await ClaimsTestSite.start(files)
        defer { Task { await site.stop() } }
        let resolver = try ClaimsNetwork.resolver(fetcher: try ClaimsNetwork.stack(for: site))
        let resolution = try await resolver.resolve("https://example.com/buy/42", ClaimsNetwork.request())
        let appLink = resolution.openings.first { $0.kind == .appLink }
        #expect((appLink != nil) == claimed)
        if claimed {
            // The rule is in the last list, and the claim says so.
            #expect(appLink?.claim?.file == "https://example.com/list\(depth).json")
            #expect(appLink?.claim?.rule.description == "/0")
        } else {
            let list = try #require(resolution.trace?.claims?.last)
            #expect(list.notes.contains { $0.contains("includes go 5 deep at most") }, "\(list.notes)")
        }
    }

    @Test func aBrokenIncludeDropsOnlyItself() async throws {
        let site = try await ClaimsTestSite.start([
            ClaimsTestSite.assetLinksPath: .json(
                #"[{"include": "https://example.com/missing.json"}, {"include": "https://example.com/good.json"}]"#
            ),
            "/good.json": .json(ClaimsTestSite.assetLinks),
        ])
        defer { Task { await site.stop() } }
        let resolver = try ClaimsNetwork.resolver(fetcher: try ClaimsNetwork.stack(for: site))
        let resolution = try await resolver.resolve("https://example.com/buy/42", ClaimsNetwork.request())
        #expect(resolution.openings.first { $0.kind == .appLink }?.claim?.file == "https://example.com/good.json")
        let list = try #require(resolution.trace?.claims?.last)
        #expect(list.problem == nil)
        #expect(list.notes.contains { $0.contains("https://example.com/missing.json") && $0.contains("404") })
    }

    @Test func theUserLayerSkipsASitesClaims() async throws {
        let site = try await ClaimsTestSite.start()
        defer { Task { await site.stop() } }
        let layer =
            #"{"switchyardUserLayer": 1, "sites": [{"hosts": ["example.com"], "skipManifest": false, "skipClaims": true}]}"#
        let resolver = try ClaimsNetwork.resolver(fetcher: try ClaimsNetwork.stack(for: site), layer: layer)
        let resolution = try await resolver.resolve("https://example.com/buy/42", ClaimsNetwork.request())
        #expect(!resolution.openings.contains { $0.claim != nil })
        #expect(resolution.openings.contains { $0.kind == .action })
        #expect(site.server.requestCount == 0)
        let decision = try #require(resolution.trace?.userLayer?.first { $0.effect == .skippedClaims })
        #expect(decision.entry.description == "/sites/0/skipClaims")
    }

    @Test func theUserLayerHidesAndPrefersClaimedApps() async throws {
        let twoApps = ClaimsTestSite.aasa.replacingOccurrences(
            of: #"["\#(ClaimsTestSite.appID)"]"#,
            with: #"["\#(ClaimsTestSite.appID)", "\#(ClaimsTestSite.secondAppID)"]"#
        )
        let site = try await ClaimsTestSite.start([ClaimsTestSite.aasaPath: .json(twoApps)])
        defer { Task { await site.stop() } }
        let layer = #"{"switchyardUserLayer": 1, "hide": ["example"], "prefer": ["com.example.other"]}"#
        let resolver = try ClaimsNetwork.resolver(fetcher: try ClaimsNetwork.stack(for: site), layer: layer)
        let resolution = try await resolver.resolve("https://example.com/buy/42", ClaimsNetwork.request())
        let claimed = resolution.openings.filter { $0.claim != nil }
        // The manifest's `example` is hidden; the other app, named by its bundle ID, is preferred.
        #expect(claimed.map { $0.app?.identifier } == ["com.example.other"])
        #expect(claimed.first?.preferred == OpeningPreference(by: .userLayer, reason: "/prefer/0"))
        let decisions = try #require(resolution.trace?.userLayer)
        let hidden = try #require(decisions.first { $0.effect == .hidden })
        #expect(
            hidden.claims?.first
                == "https://example.com/.well-known/apple-app-site-association#/applinks/details/0/components/1"
        )
        // Two claimants: both listed in file order, and the trace says iOS's choice is not documented.
        let aasa = try #require(resolution.trace?.claims?.first)
        #expect(aasa.claims.map(\.app) == [ClaimsTestSite.appID, ClaimsTestSite.secondAppID])
        #expect(aasa.notes.contains { $0.contains("2 apps claim the link") })
    }

    @Test(arguments: [
        (
            "https://example.com/buy/42?q=a%20b&x=1",
            "intent://example.com/buy/42?q=a%20b&x=1#Intent;scheme=https;package=com.example.android;end"
        ),
        (
            "https://example.com/a#frag",
            "intent://example.com/a#frag#Intent;scheme=https;package=com.example.android;end"
        ),
        ("https://example.com:8443/", "intent://example.com:8443/#Intent;scheme=https;package=com.example.android;end"),
    ])
    func appLinksAreIntentURLsAsAndroidWritesThem(link: String, intent: String) throws {
        #expect(AppLinkIntent.url(for: try Link(link), package: ClaimsTestSite.package) == intent)
    }
}
