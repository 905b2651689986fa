import Foundation
import SwitchyardTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `switchyard serve` as a real process on 127.0.0.1, and the playground page in a real browser (Debian's chromium).
@Suite(.serialized) struct ServeEndToEndTests {
    /// A running server process and the port it chose.
    final class RunningServer {
        let process: Process
        let port: Int
        let log: Pipe

        init(arguments: [String] = []) throws {
            process = Process()
            process.executableURL = SwitchyardProcess.binaryURL
            process.arguments = ["serve", "--port", "0"] + arguments
            log = Pipe()
            process.standardError = log
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            var port: Int?
            var output = ""
            let deadline = Date().addingTimeInterval(30)
            while port == nil, Date() < deadline, process.isRunning {
                let chunk = log.fileHandleForReading.availableData
                output += String(decoding: chunk, as: UTF8.self)
                if let range = output.range(
                    of: #"listening on http://127\.0\.0\.1:(\d+)/"#,
                    options: .regularExpression
                ) {
                    port = Int(output[range].split(separator: ":").last?.dropLast() ?? "")
                }
            }
            guard let port else {
                process.terminate()
                throw ServeFailure(message: "the server did not report its port: \(output)")
            }
            self.port = port
        }

        func stop() {
            process.interrupt()  // SIGINT: graceful shutdown
            process.waitUntilExit()
        }
    }

    struct ServeFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    static func get(_ url: String) async throws -> (Int, Data) {
        let (data, response) = try await URLSession.shared.data(from: try #require(URL(string: url)))
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    @Test func servesTheAPIOverLoopbackAndShutsDownGracefully() async throws {
        let server = try RunningServer()
        defer { server.stop() }
        let (status, data) = try await Self.get(
            "http://127.0.0.1:\(server.port)/v1/resolve?url=https%3A%2F%2Ftwitter.com%2Fjack%2Fstatus%2F20"
        )
        #expect(status == 200)
        let body = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let openings = try #require(body["openings"] as? [[String: Any]])
        #expect(openings.contains { $0["url"] as? String == "twitter://status?id=20" })
        let (health, _) = try await Self.get("http://127.0.0.1:\(server.port)/healthz")
        #expect(health == 200)
        server.stop()
        #expect(server.process.terminationReason == .exit)
        #expect(server.process.terminationStatus == 0)
        // The end of the run is in the log, as its start is.
        let log = String(decoding: server.log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.split(separator: "\n").last?.contains("stopped") == true, "\(log)")
    }

    @Test(
        .enabled(if: Chromium.isRequired, Chromium.skipReason)
    )
    func playgroundShowsOpeningsInARealBrowser() async throws {
        let browser = try #require(Chromium.path, "chromium must be installed on CI (scripts/test installs it)")
        let server = try RunningServer()
        defer { server.stop() }
        let page = "http://127.0.0.1:\(server.port)/?url=https%3A%2F%2Ftwitter.com%2Fjack%2Fstatus%2F20"
        let outputDirectory = SharedData.packageRoot.appendingPathComponent("test-output")
        try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        let screenshot = outputDirectory.appendingPathComponent("playground.png")
        try? FileManager.default.removeItem(at: screenshot)
        let common = [
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--virtual-time-budget=8000",
            "--user-data-dir=\(outputDirectory.path)/chromium-profile",
        ]
        // The page fills the form from ?url= and submits it, as a user would; the DOM after the fetches is checked.
        let dom = try await Self.run(browser, common + ["--dump-dom", page])
        #expect(dom.contains("data-state=\"done\""))
        #expect(dom.contains("twitter://status?id=20"))
        #expect(dom.components(separatedBy: "class=\"opening\"").count > 5)
        // A right-to-left override in the link is shown as a visible marker, never applied to the text.
        let spoof = "https://twitter.com/jack\u{202E}gnp.exe/status/20"
        let spoofPage =
            "http://127.0.0.1:\(server.port)/?url="
            + (spoof.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        let spoofDOM = try await Self.run(browser, common + ["--dump-dom", spoofPage])
        #expect(spoofDOM.contains("data-state=\"done\""))
        #expect(spoofDOM.contains("⟦U+202E⟧"))
        #expect(!spoofDOM.unicodeScalars.contains("\u{202E}"))
        _ = try await Self.run(browser, common + ["--window-size=1100,900", "--screenshot=\(screenshot.path)", page])
        let attributes = try FileManager.default.attributesOfItem(atPath: screenshot.path)
        #expect((attributes[.size] as? Int ?? 0) > 10_000, "the screenshot is in test-output/playground.png")
    }

    static func run(_ executable: String, _ arguments: [String]) async throws -> String {
        try await SwitchyardProcess.run(executable: URL(fileURLWithPath: executable), arguments: arguments).stdout
    }
}
