import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinkServer
import SwitchyardTestSupport
import Testing

/// The playground page's own files and what it shows around a resolution: its icon (so a browser's `/favicon.ico` is
/// no 404 on every page load), the rules it resolves with, and the server's own word on a link without a scheme.
@Suite struct PlaygroundPageTests {
    @Test func theIconIsServedWhereBrowsersLookForIt() async throws {
        let app = try await ServerRoutesTests.server().application()
        try await app.test(.router) { client in
            try await client.execute(uri: "/", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(page.contains(#"<link rel="icon" href="/playground/icon.svg" type="image/svg+xml">"#))
                // Text, not type="url": a bare domain reaches the server, whose error says which link was meant.
                #expect(page.contains(#"<input id="link" name="url" type="text""#))
                #expect(page.contains(#"<p id="rules""#))
            }
            for path in ["/playground/icon.svg", "/favicon.ico"] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok, "\(path)")
                    #expect(response.headers[.contentType] == "image/svg+xml")
                    #expect(String(buffer: response.body).hasPrefix("<svg"))
                }
            }
        }
    }

    /// In chromium: `twitter.com/jack` gets the CLI's did-you-mean, and the page names the rules.
    @Test(.enabled(if: Chromium.isRequired, Chromium.skipReason))
    func aBareDomainGetsTheSuggestionAndTheRulesAreNamed() async throws {
        let browser = try #require(Chromium.path, "chromium must be installed on CI (scripts/test installs it)")
        let app = try await ServerRoutesTests.server().application()
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        try await app.test(.live) { client in
            let page = "http://127.0.0.1:\(try #require(client.port))/?url=twitter.com%2Fjack"
            let dom = try await PlaygroundBrowserTests.run(
                browser,
                [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--user-data-dir=\(profile.path)", "--virtual-time-budget=20000", "--dump-dom", page,
                ]
            )
            #expect(dom.contains(#"did you mean "https://twitter.com/jack"?"#), "\(dom.prefix(3000))")
            #expect(dom.contains("Rules: Switchyard's bundled rules (generation 1)"), "\(dom.prefix(3000))")
        }
    }
}
