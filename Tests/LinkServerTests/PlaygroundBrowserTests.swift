import Foundation
import Hummingbird
import HummingbirdTesting
import LinkResolver
import SwitchyardTestSupport
import Testing

@testable import LinkServer

/// The playground page in a real browser (Debian's chromium, headless) over a live server with the v5 manifest,
/// checked as a person sees it: what is shown and hidden, how the tests table lays its words out, what reads as an
/// error, and what the controls send. A harness page served beside it (a test route) loads the playground in a
/// frame, uses it as a person would, measures what is rendered and writes a report; the test reads the report from
/// the DOM chromium dumps. It also writes Docs/playground-resolve.png and Docs/playground-tests.png.
@Suite(.serialized) struct PlaygroundBrowserTests {
    @Test(
        .enabled(if: SharedData.isAvailable, SharedData.skipReason),
        .enabled(if: Chromium.isRequired, Chromium.skipReason)
    )
    func aPersonSeesThePlayground() async throws {
        let browser = try #require(Chromium.path, "chromium must be installed on CI (scripts/test installs it)")
        let manifest = try #require(SharedData.url("openerManifest-v5.json"))
        let server = try await SwitchyardServer(
            configuration: ServerConfiguration(port: 0, manifest: .file(manifest.path), networkEnabled: false)
        )
        let harness = RouteCollection(context: SwitchyardRequestContext.self)
        harness.get("test/harness") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/html; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: Self.harnessPage))
            )
        }
        let app = await server.application(
            router: server.router(adding: [harness]),
            reloadsOnHangUp: false,
            onServerRunning: nil
        )
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        let common = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
            "--user-data-dir=\(profile.path)", "--window-size=1100,1000",
        ]
        try await app.test(.live) { client in
            let base = "http://127.0.0.1:\(try #require(client.port))"
            let dom = try await Self.run(
                browser,
                common + ["--virtual-time-budget=120000", "--dump-dom", base + "/test/harness"]
            )
            let report = try Self.report(in: dom)
            if let failure = report["failure"] as? String { Issue.record("the harness stopped: \(failure)") }
            try Self.check(report)
            // The pictures for the docs: a resolved link, and the tests tab.
            let docs = SharedData.packageRoot.appendingPathComponent("Docs")
            let link = "https%3A%2F%2Fwww.facebook.com%2Fgroups%2Fworkoholic.zmanamiti%2F"
            for (name, page) in [("playground-resolve.png", "/?url=\(link)"), ("playground-tests.png", "/#tests")] {
                let file = docs.appendingPathComponent(name)
                try? FileManager.default.removeItem(at: file)
                _ = try await Self.run(
                    browser,
                    common + ["--virtual-time-budget=30000", "--screenshot=\(file.path)", base + page]
                )
                let size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
                #expect(size > 20_000, "\(name) is missing or blank")
            }
        }
    }

    /// With `serve --claims`, a link its domain claims shows the universal-link and app-link openings with their claim,
    /// and the explanation lists each file with every claim and exclusion: the page as chromium renders it, over a
    /// live server whose network reaches a loopback TLS stand-in for `https://example.com`.
    @Test(.enabled(if: Chromium.isRequired, Chromium.skipReason))
    func aPersonSeesTheClaims() async throws {
        let browser = try #require(Chromium.path, "chromium must be installed on CI (scripts/test installs it)")
        let site = try await ClaimsTestSite.start()
        defer { Task { await site.stop() } }
        let server = try await ClaimsRoutesTests.server(site: site)
        let app = await server.application()
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: profile) }
        try await app.test(.live) { client in
            let page = "http://127.0.0.1:\(try #require(client.port))/?url=https%3A%2F%2Fexample.com%2Fbuy%2F42"
            let dom = try await Self.run(
                browser,
                [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--user-data-dir=\(profile.path)", "--virtual-time-budget=30000", "--dump-dom", page,
                ]
            )
            #expect(dom.contains(#"data-kind="universal-link""#), "\(dom.suffix(2000))")
            #expect(dom.contains(#"data-kind="app-link""#))
            #expect(
                dom.contains(
                    "claim /applinks/details/0/components/1 in https://example.com/.well-known/apple-app-site-association (age 0 s)"
                )
            )
            #expect(
                dom.contains(
                    "Claims: https://example.com/.well-known/apple-app-site-association (apple-app-site-association): age 0 s"
                )
            )
            #expect(dom.contains("↳ ABCDE12345.com.example.app: match by /applinks/details/0/components/1"))
            #expect(dom.contains("intent://example.com/buy/42#Intent;scheme=https;package=com.example.android;end"))
        }
    }

    /// What the harness saw, against what a person should see.
    static func check(_ report: [String: Any]) throws {
        let resolve = try #require(report["resolve"] as? [String: Any])
        // App actions are listed; the 44 browsers of v5 are one collapsed group below them.
        #expect(resolve["visibleKinds"] as? [String] == ["action"], "\(resolve)")
        #expect((resolve["visibleActions"] as? Int ?? 0) >= 5)
        #expect(resolve["browserGroupShown"] as? Bool == true)
        #expect(resolve["browserGroupOpen"] as? Bool == false)
        #expect(resolve["browserGroupSummary"] as? String == "44 browsers can open it as a web page")
        #expect(resolve["browsersInGroup"] as? Int == 44)
        #expect(resolve["browsersShownWhenOpened"] as? Int == 44)
        // The platform and installed-apps controls are there and feed the request.
        #expect(resolve["platformOptions"] as? [String] == ["any device", "phone", "pad"])
        #expect((resolve["installedChoices"] as? Int ?? 0) > 250)
        let filtered = try #require(report["filtered"] as? [String: Any])
        let request = try #require(filtered["request"] as? String)
        #expect(request.contains("installed=twitter"), "\(request)")
        #expect(request.contains("platform=phone"), "\(request)")
        #expect(filtered["visibleApps"] as? [String] == ["Twitter"], "\(filtered)")
        #expect((filtered["summary"] as? String)?.contains("Twitter") == true)
        // An opening's error reads as an error: red text on a tinted band, not a monospace link.
        let failed = try #require(report["openingError"] as? [String: Any])
        #expect((failed["text"] as? String)?.contains("E_NEEDS_NETWORK") == true, "\(failed)")
        #expect(failed["tag"] as? String == "DIV")
        #expect(failed["color"] as? String == "rgb(179, 38, 30)")
        #expect(failed["monospace"] as? Bool == false)
        #expect(failed["insideLink"] as? Bool == false)
        // The chooser's fields are selects filled from /v1/app-types.
        let chooser = try #require(report["chooser"] as? [String: Any])
        #expect(chooser["typeOptions"] as? [String] == chooser["catalogTypes"] as? [String], "\(chooser)")
        #expect(chooser["actionOptions"] as? [String] == ["Show an account", "Write a post", "Show a post"])
        #expect(chooser["parameterLabels"] as? [String] == ["Account name", "Post text", "Post id"])
        #expect(chooser["choices"] as? [String] == ["twitter://user?screen_name=jack"])
        // The tests tab: the failures first, each word of the short columns on one line, the reason an error.
        let tests = try #require(report["tests"] as? [String: Any])
        #expect(tests["summary"] as? String == "1785 passed, 12 failed, 323 skipped", "\(tests)")
        #expect(tests["firstStatus"] as? String == "failed")
        #expect(tests["wordsOnOneLine"] as? Bool == true, "\(tests)")
        #expect((tests["narrowestColumn"] as? Double ?? 0) >= 60, "\(tests)")
        #expect((tests["tallestLocationLines"] as? Int ?? 99) <= 2, "\(tests)")
        #expect(tests["reasonColor"] as? String == "rgb(179, 38, 30)")
        #expect(tests["reasonMonospace"] as? Bool == false)
        #expect(tests["expectedMonospace"] as? Bool == true)
    }

    /// The JSON the harness wrote in `<pre id="report">`.
    static func report(in dom: String) throws -> [String: Any] {
        let start = try #require(dom.range(of: #"<pre id="report">"#), "no report in: \(dom.prefix(500))")
        let end = try #require(dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex))
        let text = dom[start.upperBound..<end.lowerBound]
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&amp;", with: "&")
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(object as? [String: Any], "the report is not an object: \(text.prefix(300))")
    }

    /// Runs `executable` and returns its standard output.
    static func run(_ executable: String, _ arguments: [String]) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Read while it runs (a full pipe would block it), then wait for it to end.
        let data = await Task.detached { output.fileHandleForReading.readDataToEndOfFile() }.value
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// The harness: the playground in a frame, used and measured in order; the report is written when it ends.
    static let harnessPage = #"""
        <!doctype html>
        <html><body>
        <pre id="report">running</pre>
        <iframe id="page" style="width:1100px;height:1000px;border:0"></iframe>
        <script>
        "use strict";
        const report = {};
        const frame = document.getElementById("page");
        const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
        async function until(test, what) {
          for (let i = 0; i < 1200; i++) { try { if (test()) return; } catch (e) {} await sleep(50); }
          throw new Error(`timed out waiting for ${what}`);
        }
        const load = (url) => new Promise((resolve) => { frame.onload = () => resolve(); frame.src = url; });
        const doc = () => frame.contentDocument;
        const style = (node) => frame.contentWindow.getComputedStyle(node);
        // Rendered for a person: a box, not hidden, not inside a closed <details> (whose content keeps its boxes).
        const shown = (node) => !!node && node.getClientRects().length > 0 && node.checkVisibility({ visibilityProperty: true });
        const all = (selector) => [...doc().querySelectorAll(selector)];
        const monospace = (node) => /mono/i.test(style(node).fontFamily);
        // How many lines a node's text takes as rendered.
        function lines(node) {
          const range = doc().createRange();
          range.selectNodeContents(node);
          return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
        }
        async function resolveAndWait(url) {
          await load(url);
          await until(() => doc().body.dataset.state === "done", url);
        }
        async function run() {
          await resolveAndWait("/?url=" + encodeURIComponent("https://twitter.com/jack/status/20"));
          const visible = all("li.opening").filter(shown);
          report.resolve = {
            visibleKinds: [...new Set(visible.map((li) => li.dataset.kind))],
            visibleActions: visible.filter((li) => li.dataset.kind === "action").length,
            browserGroupSummary: doc().querySelector("#browsers summary").textContent,
            browserGroupShown: shown(doc().querySelector("#browsers summary")),
            browserGroupOpen: doc().querySelector("#browsers").open,
            browsersInGroup: all("#browsers li.opening").length,
            platformOptions: all("#platform option").map((option) => option.textContent),
            installedChoices: all("#installed-picker input[type=checkbox]").length,
          };
          doc().querySelector("#browsers summary").click();
          report.resolve.browsersShownWhenOpened = all("#browsers li.opening").filter(shown).length;

          // A person ticks Twitter alone, picks phone and resolves again.
          const requests = [];
          const page = frame.contentWindow;
          const pageFetch = page.fetch.bind(page);
          page.fetch = (url, ...rest) => { requests.push(String(url)); return pageFetch(url, ...rest); };
          doc().querySelector("#installed-picker summary").click();
          all("#installed-picker input").find((box) => box.value === "twitter").click();
          doc().querySelector("#platform").value = "phone";
          doc().querySelector("#resolve-form button[type=submit]").click();
          await until(() => requests.length > 0 && doc().body.dataset.state === "done", "the filtered resolution");
          report.filtered = {
            request: requests.find((url) => url.includes("/v1/explain")),
            visibleApps: [...new Set(all("#openings li.opening").filter(shown).map((li) => li.querySelector(".name").textContent))],
            summary: doc().querySelector("#installed-summary").textContent,
          };

          // A script that needs the network, offline: the opening says why it has no URL.
          await resolveAndWait("/?url=" + encodeURIComponent("https://www.facebook.com/groups/workoholic.zmanamiti/"));
          const failed = all(".opening").find((li) => /E_NEEDS_NETWORK/.test(li.textContent));
          const message = [...failed.querySelectorAll("*")].find((node) => node.children.length === 0 && /E_NEEDS_NETWORK/.test(node.textContent));
          report.openingError = {
            text: message.textContent, tag: message.tagName, color: style(message).color,
            monospace: monospace(message), insideLink: !!message.closest("a"),
          };

          // The chooser: its selects come from /v1/app-types.
          const catalog = await (await fetch("/v1/app-types")).json();
          doc().querySelector('.tab[data-view="chooser"]').click();
          await until(() => all("#choose-type option").length > 0, "the app types");
          const type = doc().querySelector("#choose-type");
          type.value = "twitter";
          type.dispatchEvent(new frame.contentWindow.Event("change"));
          doc().querySelector('#choose-params input[data-param="profile_screenname"]').value = "jack";
          doc().querySelector("#choose-action").value = "show_profile";
          doc().querySelector("#choose-form button[type=submit]").click();
          await until(() => all("#choices a").length > 0, "the choices");
          report.chooser = {
            catalogTypes: catalog.types.map((t) => t.name),
            typeOptions: all("#choose-type option").map((option) => option.textContent),
            actionOptions: all("#choose-action option").map((option) => option.textContent),
            parameterLabels: all("#choose-params label").map((label) => label.firstChild.textContent),
            choices: all("#choices a").map((a) => a.textContent),
          };

          // The tests tab.
          doc().querySelector('.tab[data-view="tests"]').click();
          await until(() => all("#tests tbody tr").length > 0, "the test results");
          const rows = all("#tests tbody tr").slice(0, 40);
          const shortCells = rows.flatMap((row) => [row.cells[0], row.cells[1]]);
          const reason = doc().querySelector("#tests tbody tr .reason");
          report.tests = {
            summary: doc().querySelector("#tests-summary").textContent,
            firstStatus: rows[0].cells[0].textContent,
            wordsOnOneLine: shortCells.every((cell) => lines(cell) === 1),
            narrowestColumn: Math.min(...all("#tests th").map((th) => th.getBoundingClientRect().width)),
            tallestLocationLines: Math.max(...rows.map((row) => lines(row.cells[2]))),
            reasonColor: style(reason).color,
            reasonMonospace: monospace(reason),
            expectedMonospace: monospace(rows[0].cells[4].querySelector("code")),
          };
        }
        run().catch((error) => { report.failure = String(error && error.stack || error); })
          .finally(() => { document.getElementById("report").textContent = JSON.stringify(report); });
        </script>
        </body></html>
        """#
}
