import Foundation
import SwitchyardTestSupport
import Testing

/// `predict` with what the device does not give read from a loopback TLS stand-in for `https://example.com`
/// (`--connect-to`, `--trust-ca`): an Android app's verification derived from the served assetlinks.json, an iPhone's
/// apple-app-site-association file read from the domain.
@Suite(.serialized) struct PredictNetworkCommandTests {
    /// An Android device whose app asks to verify example.com and gives its certificate, with a browser.
    static let android = """
        {"platform": "android", "sdk": 34, "apps": [
          {"package": "\(ClaimsTestSite.package)", "isBrowser": false, "fingerprints": ["\(ClaimsTestSite.fingerprint)"],
           "filters": [{"actions": ["VIEW"], "categories": ["BROWSABLE", "DEFAULT"], "schemes": ["https"],
                        "hosts": ["example.com"], "autoVerify": true}]},
          {"package": "org.mozilla.firefox", "isBrowser": true}]}
        """

    func predict(_ device: String, _ link: String, site: ClaimsTestSite) async throws -> [String: Any] {
        let directory = try TemporaryDirectory()
        let ca = try directory.write(site.certificates.authorityPEM, named: "ca.pem")
        let file = try directory.write(device, named: "device.json")
        let outcome = await InProcessCommand.run(
            ["predict", link, "--device", file, "--json"] + ClaimsNetworkCommandTests.network(site, trust: ca)
        )
        #expect(outcome.status == 0, "\(outcome.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
    }

    @Test func aLinkedAppOpensTheLinkAndAnUnlinkedOneLeavesItToTheBrowser() async throws {
        let site = try await ClaimsTestSite.start()
        defer { Task { await site.stop() } }
        let linked = try await predict(Self.android, "https://example.com/buy/42", site: site)
        #expect(linked["opens"] as? String == ClaimsTestSite.package, "\(linked)")
        #expect(linked["candidates"] as? [String] == [ClaimsTestSite.package])
        let reasons = try #require(linked["reasons"] as? [[String: Any]])
        #expect(
            reasons.contains {
                ($0["text"] as? String)?.contains("(https://example.com/.well-known/assetlinks.json at /0)") == true
            },
            "\(reasons)"
        )
        #expect(site.requests(for: ClaimsTestSite.assetLinksPath) == 1)

        site.serve(
            ClaimsTestSite.assetLinksPath,
            .json(ClaimsTestSite.assetLinks.replacingOccurrences(of: ClaimsTestSite.package, with: "com.other"))
        )
        let unlinked = try await predict(Self.android, "https://example.com/buy/43", site: site)
        #expect(unlinked["opens"] as? String == "browser", "\(unlinked)")
        #expect(unlinked["candidates"] as? [String] == ["org.mozilla.firefox"])
        let why = try #require(unlinked["reasons"] as? [[String: Any]]).compactMap { $0["text"] as? String }
        #expect(why.contains { $0.contains("does not link \(ClaimsTestSite.package) with its certificate") }, "\(why)")
    }

    @Test func aMissingFileIsNotVerification() async throws {
        let site = try await ClaimsTestSite.start([:])
        defer { Task { await site.stop() } }
        let missing = try await predict(Self.android, "https://example.com/buy/42", site: site)
        #expect(missing["opens"] as? String == "browser")
        let why = try #require(missing["reasons"] as? [[String: Any]]).compactMap { $0["text"] as? String }
        #expect(why.contains { $0.contains("its server answered 404") }, "\(why)")
    }

    @Test func anIPhoneReadsTheDomainsFileWhenTheDeviceGivesNone() async throws {
        let site = try await ClaimsTestSite.start()
        defer { Task { await site.stop() } }
        let device = #"{"platform": "ios", "apps": [{"appId": "\#(ClaimsTestSite.appID)"}]}"#
        let claimed = try await predict(device, "https://example.com/buy/42", site: site)
        #expect(claimed["opens"] as? String == ClaimsTestSite.appID, "\(claimed)")
        let excluded = try await predict(device, "https://example.com/buy/private/1", site: site)
        #expect(excluded["opens"] as? String == "safari")
    }

    @Test func offlineNothingIsReadAndTheReasonsSaySo() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write(Self.android, named: "device.json")
        let outcome = await InProcessCommand.run([
            "predict", "https://example.com/buy/42", "--device", file, "--offline",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("Opens:      browser"))
        #expect(
            outcome.stdout.contains("https://example.com/.well-known/assetlinks.json was not read"),
            "\(outcome.stdout)"
        )
    }
}
