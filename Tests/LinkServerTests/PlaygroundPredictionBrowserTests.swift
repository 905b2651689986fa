import Foundation
import Hummingbird
import HummingbirdTesting
import SwitchyardTestSupport
import Testing

@testable import LinkServer

/// The playground's device tab in Debian's chromium (headless) over a live server: a pasted device file and a link
/// give the outcome, the candidates and each reason with its rule; a device file that is not JSON, or that the server
/// refuses, reads as an error. It also writes Docs/playground-device.png.
@Suite(.serialized) struct PlaygroundPredictionBrowserTests {
    static let device = """
        {"platform": "android", "sdk": 34, "apps": [
          {"package": "com.example.shop", "isBrowser": false, "firstInstallOrder": 2,
           "filters": [{"actions": ["VIEW"], "categories": ["BROWSABLE", "DEFAULT"], "schemes": ["https"],
                        "hosts": ["shop.example", "*.shop.example"], "autoVerify": true}],
           "verified": ["*.shop.example"]},
          {"package": "com.example.deals", "isBrowser": false, "firstInstallOrder": 3,
           "filters": [{"actions": ["VIEW"], "categories": ["BROWSABLE", "DEFAULT"], "schemes": ["https"],
                        "hosts": ["shop.example"]}],
           "userSelected": ["shop.example"]},
          {"package": "org.mozilla.firefox", "isBrowser": true}]}
        """

    static func page(_ base: String, link: String, device: String) -> String {
        var query = URLComponents()
        query.queryItems = [URLQueryItem(name: "predict", value: link), URLQueryItem(name: "device", value: device)]
        return base + "/"
            + (query.percentEncodedQuery.map { "?" + $0.replacingOccurrences(of: "+", with: "%2B") } ?? "")
    }

    @Test(.enabled(if: Chromium.isRequired, Chromium.skipReason))
    func aPersonSeesWhatTheTapOpensAndWhy() async throws {
        let browser = try #require(Chromium.path, "chromium must be installed on CI (scripts/test installs it)")
        let server = try await SwitchyardServer(configuration: ServerConfiguration(port: 0, networkEnabled: false))
        let app = await server.application()
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let common = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
            "--user-data-dir=\(profile.path)", "--window-size=1100,900", "--virtual-time-budget=30000",
        ]
        try await app.test(.live) { client in
            let base = "http://127.0.0.1:\(try #require(client.port))"
            let page = Self.page(base, link: "https://shop.example/cart", device: Self.device)
            let dom = try await PlaygroundBrowserTests.run(browser, common + ["--dump-dom", page])
            #expect(dom.contains(#"<strong id="prediction-opens">com.example.shop</strong>"#), "\(dom.suffix(3000))")
            #expect(dom.contains(#"<span id="prediction-candidates">com.example.shop</span>"#))
            #expect(
                dom.contains(
                    #"<li data-rule="outranks"><span class="rule">outranks</span>verified outranks selected: com.example.deals is passed over</li>"#
                )
            )
            #expect(dom.contains("com.example.shop is verified for *.shop.example, which covers shop.example (given)"))
            #expect(dom.contains(#"id="view-device" class="view">"#), "the device tab is shown")

            let unread = try await PlaygroundBrowserTests.run(
                browser,
                common + ["--dump-dom", Self.page(base, link: "https://shop.example/", device: "{not json")]
            )
            #expect(
                unread.contains(#"<p id="predict-error" class="error">The device file is not JSON"#),
                "\(unread.suffix(2000))"
            )
            let refused = try await PlaygroundBrowserTests.run(
                browser,
                common + [
                    "--dump-dom", Self.page(base, link: "https://shop.example/", device: #"{"platform":"windows"}"#),
                ]
            )
            #expect(refused.contains("/device/platform: \"windows\" is not a platform"), "\(refused.suffix(2000))")
            #expect(refused.contains("(E_DEVICE)"))

            let docs = SharedData.packageRoot.appendingPathComponent("Docs")
            let file = docs.appendingPathComponent("playground-device.png")
            try? FileManager.default.removeItem(at: file)
            _ = try await PlaygroundBrowserTests.run(browser, common + ["--screenshot=\(file.path)", page])
            let size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
            #expect(size > 20_000, "playground-device.png is missing or blank")
        }
    }
}
