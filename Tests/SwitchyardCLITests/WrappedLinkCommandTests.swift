import Foundation
import LinkMatching
import SwitchyardTestSupport
import Testing

/// Wrapped links on the command line, in process: `resolve --offline` lists the inner link's openings for every kind
/// of wrapper, `--open-wrapped` sends browsers to the wrapped link, `explain` names each wrapper and says the gateway
/// is bypassed for app openings, `lint` locates the user layer's wrapper errors, and an opaque wrapper is followed
/// online as a short link (a loopback TLS stand-in for Mimecast, reached with `--connect-to`).
@Suite struct WrappedLinkCommandTests {
    static func resolution(_ outcome: CommandOutcome) throws -> Resolution {
        try JSONDecoder().decode(Resolution.self, from: Data(outcome.stdout.utf8))
    }

    @Test(arguments: WrappedLinks.cases)
    func resolveOfflineListsTheInnerLinksOpenings(_ id: String, _ name: String, _ link: String) async throws {
        let wrapped = await InProcessCommand.run(["resolve", "--offline", "--json", link])
        #expect(wrapped.status == 0, "\(wrapped.stderr)")
        let direct = await InProcessCommand.run(["resolve", "--offline", "--json", WrappedLinks.inner])
        let resolution = try Self.resolution(wrapped)
        #expect(resolution.unwrapped == WrappedLinks.inner)
        #expect(resolution.openings == (try Self.resolution(direct)).openings)
        #expect(resolution.steps.map(\.rule) == [name])
        #expect(wrapped.stderr.isEmpty)
    }

    @Test func theIssuesSafeLinksExampleListsTheInnerLinksOpenings() async throws {
        let outcome = await InProcessCommand.run([
            "resolve", "--offline",
            "https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Ftwitter.com%2Fjack%2Fstatus%2F20&data=x&reserved=0",
        ])
        #expect(outcome.status == 0)
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(lines[1] == "Unwrapped: https://twitter.com/jack/status/20")
        #expect(lines[2].hasPrefix("  wrapper Microsoft Defender Safe Links: https://eur01.safelinks"))
        #expect(lines.contains("action   X               Open Post       twitter://status?id=20"))
        #expect(lines.contains("browser  Safari          Safari          https://twitter.com/jack/status/20"))
    }

    @Test func openWrappedSendsBrowsersToTheWrappedLink() async throws {
        let link = WrappedLinks.nested
        let outcome = await InProcessCommand.run(["resolve", "--offline", "--json", "--open-wrapped", link])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let resolution = try Self.resolution(outcome)
        #expect(resolution.openings.first { $0.kind == .action }?.url == WrappedLinks.innerAppURL)
        #expect(resolution.openings.first { $0.app?.identifier == "safari" }?.url == link)
        // A layer that asks for it, and the flag that says no.
        let directory = try TemporaryDirectory()
        let layer = try directory.write(#"{"switchyardUserLayer": 1, "openWrapped": true}"#, named: "layer.json")
        let byLayer = try Self.resolution(
            await InProcessCommand.run(["resolve", "--offline", "--json", "--user-layer", layer, link])
        )
        #expect(byLayer.openings.first { $0.app?.identifier == "safari" }?.url == link)
        let refused = try Self.resolution(
            await InProcessCommand.run([
                "resolve", "--offline", "--json", "--user-layer", layer, "--no-open-wrapped", link,
            ])
        )
        #expect(refused.openings.first { $0.app?.identifier == "safari" }?.url == WrappedLinks.inner)
    }

    @Test func explainNamesEachWrapperAndTheBypassedGateway() async throws {
        let outcome = await InProcessCommand.run(["explain", "--offline", WrappedLinks.nested])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let lines = outcome.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.filter { $0.hasPrefix("Wrapper ") }.map { $0.prefix(while: { $0 != ":" }) } == [
                "Wrapper Trend Micro Email Security", "Wrapper Microsoft Defender Safe Links",
                "Wrapper Proofpoint URL Defense v3",
            ]
        )
        #expect(
            lines.contains(
                "Gateway:   Trend Micro Email Security → Microsoft Defender Safe Links → Proofpoint URL Defense v3: browsers open the inner link (openWrapped opens the wrapped one, so the gateway's check runs); 1 app opening bypasses it"
            ),
            "\(outcome.stdout)"
        )
        #expect(
            lines.contains(
                "  → x: twitter://status?id=20 (opens the inner link: bypasses Trend Micro Email Security, Microsoft Defender Safe Links, Proofpoint URL Defense v3)"
            )
        )
        let json = await InProcessCommand.run(["explain", "--offline", "--json", "--open-wrapped", WrappedLinks.nested])
        let gateway = try #require(try Self.resolution(json).trace?.gateway)
        #expect(gateway.browsersOpenWrapped && gateway.wrapped == WrappedLinks.nested)
    }

    @Test func aMalformedWrapperIsResolvedAsItIsWithAWarning() async throws {
        let outcome = await InProcessCommand.run(["resolve", "--offline", WrappedLinks.malformed])
        #expect(outcome.status == 0)
        #expect(
            outcome.stderrLines.first
                == "warning: the link is a Proofpoint URL Defense v3 link, but a marker stands for a byte where its data has none left; it is resolved as it is [E_WRAPPER_MALFORMED]"
        )
        // Offline, the link it stays was not asked where it leads either.
        #expect(
            outcome.stderrLines.count == 2 && outcome.stderrLines.last?.hasSuffix("[E_OFFLINE]") == true,
            "\(outcome.stderrLines)"
        )
        #expect(outcome.stdout.contains("wrapper Proofpoint URL Defense v3: \(WrappedLinks.malformed) stays ("))
    }

    @Test func lintLocatesTheUserLayersWrapperErrors() async throws {
        let directory = try TemporaryDirectory()
        let layer = try directory.write(
            """
            {"switchyardUserLayer": 1,
             "wrappers": [{"id": "corp", "name": "Corp", "hosts": ["corp.example/check"], "paths": ["/"], "decode": "query"}],
             "disableWrappers": ["safelink"]}
            """,
            named: "layer.json"
        )
        let outcome = await InProcessCommand.run(["lint", "--user-layer", layer])
        #expect(outcome.status != 0)
        #expect(
            outcome.stdout.contains("\(layer):2:56: error: a host pattern is a host, not a URL or a path"),
            "\(outcome.stdout)"
        )
        #expect(outcome.stdout.contains("[E_PATTERN at /wrappers/0/hosts/0]"))
        #expect(outcome.stdout.contains("[E_MISSING at /wrappers/0]"))
        #expect(
            outcome.stdout.contains(
                #"no built-in link wrapper is "safelink"; this entry does nothing; did you mean "safelinks"?"#
            )
        )
    }

    /// Mimecast's links are opaque: offline the answer says so; online the resolver asks Mimecast (here a loopback TLS
    /// server with a test certificate for the host) and follows its redirect to the inner link, whose action decides.
    @Test func anOpaqueWrapperIsFollowedOnlineAsAShortLink() async throws {
        let host = "protect-eu.mimecast.com"
        let certificates = try TestCertificates(hosts: [host])
        let server = try await LoopbackHTTPServer.start(tls: certificates) { request in
            request.path == "/s/AbCdEfGhIjK" ? .redirect(to: WrappedLinks.inner, status: 302) : .text("no", status: 404)
        }
        defer { Task { await server.stop() } }
        let directory = try TemporaryDirectory()
        let ca = try directory.write(certificates.authorityPEM, named: "ca.pem")
        let offline = await InProcessCommand.run(["resolve", "--offline", "--json", WrappedLinks.mimecast])
        #expect(try Self.resolution(offline).notices.map(\.code) == [RuleSet.opaqueWrapper])
        let online = await InProcessCommand.run([
            "resolve", "--json", "--allow-private-addresses", "--connect-to", server.connectTo(host: host),
            "--trust-ca",
            ca, WrappedLinks.mimecast,
        ])
        #expect(online.status == 0, "\(online.stderr)")
        let resolution = try Self.resolution(online)
        #expect(resolution.unwrapped == WrappedLinks.inner)
        #expect(resolution.notices.isEmpty)
        #expect(resolution.steps.map(\.kind) == [.httpRedirect])
        #expect(resolution.openings.first?.url == WrappedLinks.innerAppURL)
        #expect(server.requests.map(\.path) == ["/s/AbCdEfGhIjK"])
    }
}
