import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

@testable import LinkServer

/// The request log (one line per request, links left out) and the JSON log format.
@Suite struct RequestLogTests {
    /// A log stream that keeps what is written.
    struct CapturedLog: TextOutputStream, Sendable {
        let lines = LockedLines()

        mutating func write(_ string: String) {
            lines.append(string)
        }
    }

    final class LockedLines: Sendable {
        private let storage = Mutex<[String]>([])
        func append(_ line: String) { storage.withLock { $0.append(line) } }
        var all: [String] { storage.withLock { $0 } }
    }

    static func server(_ format: LogFormat, log: CapturedLog) async throws -> SwitchyardServer {
        let configuration = ServerConfiguration(port: 0, networkEnabled: false)
        let logger = Logger(label: "switchyard.server") { label in format.handler(label: label, stream: log) }
        return try await SwitchyardServer(configuration: configuration, logger: logger)
    }

    @Test func eachRequestIsOneJSONLineWithoutTheLink() async throws {
        let log = CapturedLog()
        let server = try await Self.server(.json, log: log)
        let secret = "https://twitter.com/jack/status/20?token=s3cr3t"
        let query = try #require(secret.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
        try await server.application().test(.router) { client in
            try await client.execute(uri: "/v1/resolve?url=\(query)&platform=phone", method: .get) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/nope", method: .delete) { response in
                #expect(response.status == .notFound)
            }
        }
        let objects = try log.lines.all.map { line in
            #expect(line.hasSuffix("\n") && line.dropLast().contains("\n") == false, "one line per event: \(line)")
            return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        // Every line has the five fields; the first is the server's own "rules loaded".
        for object in objects {
            #expect(object["timestamp"] is String && object["level"] is String && object["message"] is String)
            #expect(object["label"] as? String == "switchyard.server")
        }
        #expect(objects.first?["message"] as? String == "rules loaded")
        let requests = objects.filter { $0["message"] as? String == "request" }.compactMap {
            $0["metadata"] as? [String: Any]
        }
        #expect(requests.count == 2)
        let resolve = try #require(requests.first)
        #expect(resolve["method"] as? String == "GET")
        #expect(resolve["path"] as? String == "/v1/resolve?url=…(\(query.utf8.count) bytes)&platform=phone")
        #expect(resolve["status"] as? String == "200")
        #expect(Double(resolve["duration_ms"] as? String ?? "") != nil)
        #expect(resolve["hb.request.id"] is String, "Hummingbird's request id is kept: \(resolve)")
        #expect(requests.last?["method"] as? String == "DELETE")
        #expect(requests.last?["path"] as? String == "/nope")
        #expect(requests.last?["status"] as? String == "404")
        #expect(!log.lines.all.joined().contains("s3cr3t"), "a link reached the log")
        let timestamp = try #require(objects.first?["timestamp"] as? String)
        #expect(
            (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(timestamp)) != nil,
            "\(timestamp)"
        )
    }

    @Test func theTextFormatIsSwiftLogsLine() async throws {
        let log = CapturedLog()
        let server = try await Self.server(.text, log: log)
        let status = try await server.application().test(.router) { client in
            try await client.execute(uri: "/healthz?installed=" + String(repeating: "x", count: 50), method: .get)
                .status
        }
        #expect(status == .ok)
        let line = try #require(log.lines.all.first { $0.contains(" request") })
        #expect(line.contains(" info switchyard.server:"), "\(line)")
        #expect(line.contains("method=GET"))
        #expect(line.contains("path=/healthz?installed=\(String(repeating: "x", count: 32))…"))
        #expect(line.contains("status=200"))
        #expect(!line.hasPrefix("{"))
    }

    @Test func metadataKeepsItsStructureInJSON() throws {
        let log = CapturedLog()
        var logger = Logger(label: "t") { JSONLogHandler(label: $0, stream: log) }
        logger[metadataKey: "fixed"] = "1"
        logger.warning(
            "a \"quoted\" message\nover two lines",
            metadata: ["list": ["a", "b"], "object": ["k": "v"], "fixed": "2"]
        )
        logger.debug("below the level")
        #expect(log.lines.all.count == 1)
        let line = try #require(log.lines.all.first)
        #expect(line.hasPrefix(#"{"timestamp":""#) && line.hasSuffix("}\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["level"] as? String == "warning")
        #expect(object["message"] as? String == "a \"quoted\" message\nover two lines")
        let metadata = try #require(object["metadata"] as? [String: Any])
        #expect(metadata["list"] as? [String] == ["a", "b"])
        #expect(metadata["object"] as? [String: String] == ["k": "v"])
        #expect(metadata["fixed"] as? String == "2")
    }
}

extension RequestLogTests {
    /// A configuration's log format gives the server its own logger in that format, whatever the process's logging
    /// system is (here: the test runner's default).
    @Test func theConfigurationChoosesTheServersOwnFormat() async throws {
        var configuration = ServerConfiguration(port: 0, networkEnabled: false)
        configuration.logFormat = .json
        let server = try await SwitchyardServer(configuration: configuration)
        let handler = server.logger.handler
        #expect(handler is JSONLogHandler)
        #expect(handler.logLevel == .info)
        configuration.logFormat = nil
        #expect(!(try await SwitchyardServer(configuration: configuration).logger.handler is JSONLogHandler))
    }
}
