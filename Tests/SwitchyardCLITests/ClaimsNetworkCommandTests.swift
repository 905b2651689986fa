import Foundation
import SwitchyardTestSupport
import Testing

/// `claims URL` without files, `resolve --claims` and `explain --claims` against a loopback TLS stand-in for
/// `https://example.com`, reached with `--connect-to` and trusted with `--trust-ca`; the two options' refusals.
@Suite(.serialized) struct ClaimsNetworkCommandTests {
    /// The network options that reach `site` as `https://example.com`.
    static func network(_ site: ClaimsTestSite, trust: String?) -> [String] {
        ["--allow-private-addresses", "--connect-to", site.server.connectTo()]
            + (trust.map { ["--trust-ca", $0] } ?? [])
    }

    @Test func claimsFetchesTheFilesAndSaysWhatEachClaims() async throws {
        let site = try await ClaimsTestSite.start()
        defer { Task { await site.stop() } }
        let directory = try TemporaryDirectory()
        let ca = try directory.write(site.certificates.authorityPEM, named: "ca.pem")
        let text = await InProcessCommand.run(["claims", "https://example.com/buy/42"] + Self.network(site, trust: ca))
        #expect(text.status == 0, "\(text.stderr)")
        #expect(
            text.stdout.split(separator: "\n").map(String.init) == [
                "https://example.com/buy/42 (files served for example.com)",
                "https://example.com/.well-known/apple-app-site-association: apple-app-site-association (age 0s)",
                "  ABCDE12345.com.example.app: match  by /applinks/details/0/components/1",
                "https://example.com/.well-known/assetlinks.json: assetlinks (age 0s)",
                "  com.example.android: match  by /0",
            ]
        )
        let json = await InProcessCommand.run(
            ["claims", "https://example.com/buy/private/1", "--json"] + Self.network(site, trust: ca)
        )
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let files = try #require(document["files"] as? [[String: Any]])
        let claims = try #require(files.first?["claims"] as? [[String: Any]])
        #expect(claims.first?["outcome"] as? String == "exclude")
    }

    @Test func withoutTheTestAuthorityTheCertificateIsRefused() async throws {
        let site = try await ClaimsTestSite.start()
        defer { Task { await site.stop() } }
        let outcome = await InProcessCommand.run(
            ["claims", "https://example.com/buy/42"] + Self.network(site, trust: nil)
        )
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.contains("its certificate is not trusted. [E_TLS_FAILURE]"), "\(outcome.stdout)")
        // The host is then down: the file's second place is not asked.
        #expect(outcome.stdout.contains("its host 'example.com' is down (its TLS handshake fails)"))
    }

    @Test func resolveAndExplainListTheClaimedApps() async throws {
        let site = try await ClaimsTestSite.start()
        defer { Task { await site.stop() } }
        let directory = try TemporaryDirectory()
        let ca = try directory.write(site.certificates.authorityPEM, named: "ca.pem")
        let resolved = await InProcessCommand.run(
            ["resolve", "--claims", "--json", "https://example.com/buy/42"] + Self.network(site, trust: ca)
        )
        #expect(resolved.status == 0, "\(resolved.stderr)")
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(resolved.stdout.utf8)) as? [String: Any]
        )
        let openings = try #require(document["openings"] as? [[String: Any]])
        let universal = try #require(openings.first { $0["kind"] as? String == "universal-link" })
        #expect(universal["app"] as? String == "com.example.app")
        #expect((universal["claim"] as? [String: Any])?["rule"] as? String == "/applinks/details/0/components/1")
        let explained = await InProcessCommand.run(
            ["explain", "--claims", "https://example.com/buy/42"] + Self.network(site, trust: ca)
        )
        #expect(explained.status == 0, "\(explained.stderr)")
        #expect(explained.stdout.contains("Claims of https://example.com/buy/42:"))
        #expect(
            explained.stdout.contains(
                "  → app-link com.example.android: intent://example.com/buy/42#Intent;scheme=https;package=com.example.android;end"
            )
        )
    }

    @Test(arguments: [
        (["--connect-to", "example.com:443:127.0.0.1"], "--connect-to takes HOST:PORT:ADDRESS:PORT"),
        (["--connect-to", "example.com:443:127.0.0.1:70000"], "--connect-to takes HOST:PORT:ADDRESS:PORT"),
    ])
    func refusesAConnectToItCannotRead(arguments: [String], message: String) async {
        let outcome = await InProcessCommand.run(["claims", "https://example.com/"] + arguments)
        #expect(outcome.status == 2)
        #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
    }

    @Test func refusesATrustedCAFileWithoutACertificate() async throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("not a certificate", named: "ca.pem")
        let outcome = await InProcessCommand.run(["claims", "https://example.com/", "--trust-ca", file])
        #expect(outcome.status == 2)
        #expect(outcome.stderr.hasPrefix("\(file): error: the file holds no PEM certificate"), "\(outcome.stderr)")
    }
}
