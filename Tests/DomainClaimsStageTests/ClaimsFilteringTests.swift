import DomainClaimsStage
import Foundation
import LinkMatching
import LinkResolver
import LinkRules
import SwitchyardTestSupport
import Testing

/// Claimed openings are filtered by the request's installed apps and platform, and marked in the trace with why, as
/// action openings are (issue 35): the site's app is the manifest's `example`, by its `claims` key.
@Suite(.serialized) struct ClaimsFilteringTests {
    static func resolve(
        installed: [String]? = nil,
        platform: Platform? = nil,
        manifest: String = ClaimsNetwork.manifest
    ) async throws -> Resolution {
        let site = try await ClaimsTestSite.start()
        defer { Task { await site.stop() } }
        let resolver = try ClaimsNetwork.resolver(fetcher: try ClaimsNetwork.stack(for: site), manifest: manifest)
        var request = ClaimsNetwork.request()
        request.match.installed = installed.map(InstalledApps.init)
        request.match.platform = platform
        return try await resolver.resolve("https://example.com/buy/42", request)
    }

    static func claimed(_ resolution: Resolution) -> [Opening.Kind] {
        resolution.openings.map(\.kind).filter { $0 == .universalLink || $0 == .appLink }
    }

    static func notListed(_ resolution: Resolution) -> [String?] {
        (resolution.trace?.claims ?? []).flatMap(\.claims).map(\.notListed)
    }

    @Test func anAppThatIsNotInstalledHasNoClaimedOpening() async throws {
        let resolution = try await Self.resolve(installed: ["alpha", "web"])
        #expect(Self.claimed(resolution).isEmpty)
        #expect(resolution.openings.map(\.kind) == [.action, .browser])
        #expect(Self.notListed(resolution) == ["not installed", "not installed"])
    }

    @Test func anInstalledAppKeepsItsClaimedOpenings() async throws {
        let resolution = try await Self.resolve(installed: ["example"])
        #expect(Self.claimed(resolution) == [.universalLink, .appLink])
        #expect(Self.notListed(resolution) == [nil, nil])
    }

    @Test func anAppOfTheOtherDeviceFamilyHasNoClaimedOpening() async throws {
        let padOnly = ClaimsNetwork.manifest.replacingOccurrences(
            of: #""scheme": "example","#,
            with: #""scheme": "example", "platform": "pad","#
        )
        let phone = try await Self.resolve(platform: .phone, manifest: padOnly)
        #expect(Self.claimed(phone).isEmpty)
        #expect(Self.notListed(phone) == ["only on pad", "only on pad"])
        let pad = try await Self.resolve(platform: .pad, manifest: padOnly)
        #expect(Self.claimed(pad) == [.universalLink, .appLink])
    }
}
