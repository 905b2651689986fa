import DomainClaimsStage
import LinkFetching
import LinkMatching
import LinkResolver
import SwitchyardTestSupport
import Testing
import WebLinks

/// The claims stage against a loopback TLS server standing in for `https://example.com` (issue 29's acceptance): a
/// served AASA file makes the resolution list the claiming app's universal link; a redirect, a 129 KiB file and a
/// refused host give no claims and say why; a second resolution within the file's freshness sends no request.
@Suite(.serialized) struct ClaimsStageTests {
    @Test func aServedFileListsTheClaimingAppsUniversalLinkAndAppLink() async throws {
        let site = try await ClaimsTestSite.start()
        defer { Task { await site.stop() } }
        let resolver = try ClaimsNetwork.resolver(fetcher: try ClaimsNetwork.stack(for: site))
        let resolution = try await resolver.resolve("https://example.com/buy/42", ClaimsNetwork.request())
        let kinds = resolution.openings.map(\.kind)
        // After the actions, before the browsers.
        #expect(kinds == [.action, .universalLink, .appLink, .browser])
        let universal = try #require(resolution.openings.first { $0.kind == .universalLink })
        #expect(universal.app?.identifier == "example")
        #expect(universal.url == "https://example.com/buy/42")
        #expect(universal.rule.description == "/applinks/details/0/components/1")
        #expect(universal.claim?.file == "https://example.com/.well-known/apple-app-site-association")
        #expect(universal.claim?.rule.description == "/applinks/details/0/components/1")
        let appLink = try #require(resolution.openings.first { $0.kind == .appLink })
        #expect(appLink.app?.identifier == "example")
        #expect(appLink.url == "intent://example.com/buy/42#Intent;scheme=https;package=com.example.android;end")
        #expect(appLink.claim?.file == "https://example.com/.well-known/assetlinks.json")
        let files = try #require(resolution.trace?.claims)
        #expect(files.map(\.kind) == ["apple-app-site-association", "assetlinks"])
        #expect(files[0].claims.map(\.outcome) == ["match"])
        #expect(files[0].claims.first?.manifestApp == "example")
        #expect(files[0].age == 0)
    }

    @Test func anExclusionIsInTheTraceAndGivesNoOpening() async throws {
        let site = try await ClaimsTestSite.start()
        defer { Task { await site.stop() } }
        let resolver = try ClaimsNetwork.resolver(fetcher: try ClaimsNetwork.stack(for: site))
        let resolution = try await resolver.resolve("https://example.com/buy/private/1", ClaimsNetwork.request())
        #expect(!resolution.openings.contains { $0.kind == .universalLink })
        let claim = try #require(resolution.trace?.claims?.first?.claims.first)
        #expect(claim.outcome == "exclude")
        #expect(claim.rule?.description == "/applinks/details/0/components/0")
    }

    /// What gives no claims, and the words that say why.
    static let refusals: [(path: String, response: LoopbackHTTPServer.Response, reason: String)] = [
        (
            ClaimsTestSite.aasaPath,
            .redirect(to: "https://elsewhere.example/aasa", status: 301),
            "redirects (301) to https://elsewhere.example/aasa: redirects are not followed"
        ),
        (
            ClaimsTestSite.aasaPath,
            LoopbackHTTPServer.Response(
                status: 200,
                headers: [.init("Content-Type", "application/json")],
                body: .bytes(Array(repeating: UInt8(ascii: " "), count: 129 * 1024))
            ),
            "larger than the limit of 131072 bytes"
        ),
    ]

    @Test(arguments: refusals.indices)
    func aRedirectOrAnOversizedFileGivesNoClaimsAndSaysWhy(case index: Int) async throws {
        let refusal = Self.refusals[index]
        let site = try await ClaimsTestSite.start([refusal.path: refusal.response])
        defer { Task { await site.stop() } }
        let resolver = try ClaimsNetwork.resolver(fetcher: try ClaimsNetwork.stack(for: site))
        let resolution = try await resolver.resolve("https://example.com/buy/42", ClaimsNetwork.request())
        #expect(!resolution.openings.contains { $0.kind == .universalLink })
        let aasa = try #require(resolution.trace?.claims?.first)
        // The root was tried after .well-known; the note says what .well-known gave.
        #expect(aasa.url == "https://example.com/apple-app-site-association")
        #expect(aasa.problem == "its server answered 404")
        #expect(aasa.notes.contains { $0.contains(refusal.reason) }, "\(aasa.notes)")
    }

    @Test func aHostTheNetworkPolicyRefusesGivesNoClaimsAndSaysWhy() async throws {
        let site = try await ClaimsTestSite.start()
        defer { Task { await site.stop() } }
        let resolver = try ClaimsNetwork.resolver(fetcher: try ClaimsNetwork.stack(for: site, allowPrivate: false))
        let resolution = try await resolver.resolve("https://example.com/buy/42", ClaimsNetwork.request())
        #expect(!resolution.openings.contains { $0.claim != nil })
        let aasa = try #require(resolution.trace?.claims?.first)
        #expect(
            aasa.problem?.contains("resolves to 127.0.0.1, a loopback 127.0.0.0/8 address, which is refused") == true
        )
        #expect(aasa.problem?.hasSuffix("[E_SSRF_BLOCKED]") == true)
        #expect(site.server.requestCount == 0)
    }

    @Test func aSecondResolutionWithinTheFilesFreshnessSendsNoRequest() async throws {
        let site = try await ClaimsTestSite.start([
            ClaimsTestSite.aasaPath: .json(ClaimsTestSite.aasa, cacheControl: "max-age=300"),
            ClaimsTestSite.assetLinksPath: .json(ClaimsTestSite.assetLinks, cacheControl: "max-age=600"),
        ])
        defer { Task { await site.stop() } }
        let resolver = try ClaimsNetwork.resolver(fetcher: try ClaimsNetwork.stack(for: site))
        let link = try Link("https://example.com/buy/42")
        let first = await resolver.outcome(link, ClaimsNetwork.request())
        let requests = site.server.requestCount
        #expect(requests == 2)
        let second = await resolver.outcome(link, ClaimsNetwork.request())
        #expect(site.server.requestCount == requests)
        #expect(second.resolution.openings.map(\.url) == first.resolution.openings.map(\.url))
        #expect(second.resolution.openings.contains { $0.kind == .universalLink })
        // The answer is kept no longer than its files: the AASA file's max-age is the shorter.
        let maximumAge = try #require(first.cacheability.maximumAge)
        #expect(maximumAge <= .seconds(300) && maximumAge > .seconds(200))
    }

    @Test func theRootIsTriedWhenWellKnownHasNoFile() async throws {
        let site = try await ClaimsTestSite.start(["/apple-app-site-association": .json(ClaimsTestSite.aasa)])
        defer { Task { await site.stop() } }
        let resolver = try ClaimsNetwork.resolver(fetcher: try ClaimsNetwork.stack(for: site))
        let resolution = try await resolver.resolve("https://example.com/buy/42", ClaimsNetwork.request())
        let universal = try #require(resolution.openings.first { $0.kind == .universalLink })
        #expect(universal.claim?.file == "https://example.com/apple-app-site-association")
        let aasa = try #require(resolution.trace?.claims?.first)
        #expect(
            aasa.notes.first?.contains("/.well-known/apple-app-site-association gives nothing: its server answered 404")
                == true
        )
        #expect(site.requests(for: ClaimsTestSite.aasaPath) == 1)
    }

    @Test func aWrongContentTypeIsANoteNotARefusal() async throws {
        let site = try await ClaimsTestSite.start([
            ClaimsTestSite.aasaPath: .json(ClaimsTestSite.aasa, contentType: "application/octet-stream")
        ])
        defer { Task { await site.stop() } }
        let resolver = try ClaimsNetwork.resolver(fetcher: try ClaimsNetwork.stack(for: site))
        let resolution = try await resolver.resolve("https://example.com/buy/42", ClaimsNetwork.request())
        #expect(resolution.openings.contains { $0.kind == .universalLink })
        let aasa = try #require(resolution.trace?.claims?.first)
        #expect(aasa.notes.contains { $0.contains("'application/octet-stream', not application/json: read anyway") })
    }

    @Test func aMissingFileIsRememberedBrieflySoTheNextResolutionDoesNotAsk() async throws {
        let site = try await ClaimsTestSite.start([:])
        defer { Task { await site.stop() } }
        let resolver = try ClaimsNetwork.resolver(fetcher: try ClaimsNetwork.stack(for: site))
        let first = try await resolver.outcome(Link("https://example.com/buy/42"), ClaimsNetwork.request())
        let asked = site.server.requestCount
        #expect(asked == 3)  // .well-known, the root, assetlinks.json
        _ = try await resolver.resolve("https://example.com/buy/7", ClaimsNetwork.request())
        #expect(site.server.requestCount == asked)
        let maximumAge = try #require(first.cacheability.maximumAge)
        #expect(maximumAge <= DomainFileFetcher.unusableFileLifetime && maximumAge > .zero)
    }

    @Test func aSlowServerStopsAtTheResolutionsDeadline() async throws {
        let site = try await ClaimsTestSite.start([
            ClaimsTestSite.aasaPath: LoopbackHTTPServer.Response(
                status: 200,
                body: .bytes(Array(ClaimsTestSite.aasa.utf8)),
                delay: .seconds(30)
            )
        ])
        defer { Task { await site.stop() } }
        let resolver = try ClaimsNetwork.resolver(fetcher: try ClaimsNetwork.stack(for: site))
        let outcome = try await resolver.outcome(Link("https://example.com/buy/42"), ClaimsNetwork.request(seconds: 1))
        #expect(!outcome.resolution.openings.contains { $0.kind == .universalLink })
        let aasa = try #require(outcome.resolution.trace?.claims?.first)
        #expect(aasa.notes.contains { $0.contains("E_TIMEOUT") } || aasa.problem?.contains("E_TIMEOUT") == true)
        #expect(!outcome.cacheability.allowsStoring)
    }

    @Test func aRequestTurnsClaimsOffAndAnHTTPLinkHasNone() async throws {
        let site = try await ClaimsTestSite.start()
        defer { Task { await site.stop() } }
        let resolver = try ClaimsNetwork.resolver(fetcher: try ClaimsNetwork.stack(for: site))
        var request = ClaimsNetwork.request()
        request.includesClaims = false
        let off = try await resolver.resolve("https://example.com/buy/42", request)
        #expect(!off.openings.contains { $0.claim != nil })
        #expect(off.trace?.claims == nil)
        let http = try await resolver.resolve("http://example.com/buy/42", ClaimsNetwork.request())
        #expect(!http.openings.contains { $0.claim != nil })
        #expect(site.server.requestCount == 0)
    }
}
