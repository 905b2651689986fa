import Foundation
import SwitchyardTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// A real nginx (`proxy_cache`, Debian's) in front of two `switchyard serve --offline` replicas on 127.0.0.1, as
/// `Docs/Deploying.md` describes (#22): a repeated request is served by nginx, a reload changes the `ETag`, and a
/// client's conditional request gets `304`.
@Suite(.serialized) struct NginxCacheTests {
    static let nginx: String? = ["/usr/sbin/nginx", "/usr/bin/nginx"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// The directives of the cached location, as `Docs/Deploying.md` gives them.
    static let cachedLocation = [
        "proxy_pass http://switchyard;",
        "proxy_http_version 1.1;",
        "proxy_set_header Connection \"\";",
        "proxy_cache switchyard;",
        "proxy_cache_revalidate on;",
        "proxy_cache_lock on;",
        "proxy_cache_use_stale error timeout updating http_502 http_503 http_504;",
        "add_header X-Cache-Status $upstream_cache_status always;",
    ]

    /// nginx.conf for a server on `port` in front of `replicas`, every file of nginx's in `directory`.
    static func configuration(directory: String, port: Int, replicas: [Int]) -> String {
        """
        \(getuid() == 0 ? "user root;" : "")
        worker_processes 1;
        pid \(directory)/nginx.pid;
        error_log \(directory)/error.log warn;
        events { worker_connections 64; }
        http {
            access_log \(directory)/access.log;
            client_body_temp_path \(directory)/client_body;
            proxy_temp_path \(directory)/proxy_temp;
            fastcgi_temp_path \(directory)/fastcgi_temp;
            uwsgi_temp_path \(directory)/uwsgi_temp;
            scgi_temp_path \(directory)/scgi_temp;
            proxy_cache_path \(directory)/cache levels=1:2 keys_zone=switchyard:10m max_size=100m inactive=10m use_temp_path=off;
            upstream switchyard {
                \(replicas.map { "server 127.0.0.1:\($0);" }.joined(separator: "\n        "))
                keepalive 8;
            }
            server {
                listen 127.0.0.1:\(port);
                location / {
                    \(cachedLocation.joined(separator: "\n            "))
                }
            }
        }

        """
    }

    /// A port that was free a moment ago (nginx cannot report one it chose).
    /// nginx in front of `replicas` with ``configuration(directory:port:replicas:)``, in `directory`, on a free port,
    /// until ``stop()``.
    struct RunningNginx {
        let port: Int
        let directory: URL
        let process = Process()

        init(_ nginx: String, directory: URL, replicas: [Int]) throws {
            port = try NginxCacheTests.freePort()
            self.directory = directory
            let configuration = directory.appendingPathComponent("nginx.conf")
            try Data(NginxCacheTests.configuration(directory: directory.path, port: port, replicas: replicas).utf8)
                .write(to: configuration)
            process.executableURL = URL(fileURLWithPath: nginx)
            process.arguments = [
                "-p", directory.path, "-c", configuration.path, "-e", "\(directory.path)/error.log", "-g",
                "daemon off;",
            ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        /// nginx's error log so far.
        var log: String { (try? String(contentsOfFile: "\(directory.path)/error.log", encoding: .utf8)) ?? "" }

        func stop() {
            process.terminate()
            process.waitUntilExit()
        }
    }

    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw ServeEndToEndTests.ServeFailure(message: "no free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A client without a cache of its own: every request reaches nginx.
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalAndRemoteCacheData
        return URLSession(configuration: configuration)
    }()

    struct Answer {
        var status: Int
        var body: String
        var tag: String?
        var cacheStatus: String?
    }

    static func get(_ url: String, ifNoneMatch: String? = nil) async throws -> Answer {
        var request = URLRequest(url: try #require(URL(string: url)))
        if let ifNoneMatch { request.setValue(ifNoneMatch, forHTTPHeaderField: "If-None-Match") }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return Answer(
            status: http.statusCode,
            body: String(decoding: data, as: UTF8.self),
            tag: http.value(forHTTPHeaderField: "ETag"),
            cacheStatus: http.value(forHTTPHeaderField: "X-Cache-Status")
        )
    }

    /// Asks `url` until `done` holds for the answer (a refused connection is asked again), at most `attempts` times
    /// 100 ms apart; the last answer.
    static func poll(
        _ url: String,
        attempts: Int = 300,
        until done: (Answer) -> Bool
    ) async throws -> Answer {
        for _ in 0..<attempts {
            if let answer = try? await get(url), done(answer) { return answer }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await get(url)
    }

    /// How many `/v1/resolve` requests with `status` a replica answered, from its `/metrics`.
    static func answered(_ port: Int, status: Int) async throws -> Int {
        let metrics = try await get("http://127.0.0.1:\(port)/metrics").body
        let prefix = "switchyard_requests_total{route=\"/v1/resolve\",status=\"\(status)\"} "
        let line = metrics.split(separator: "\n").first { $0.hasPrefix(prefix) }
        return line.flatMap { Int($0.dropFirst(prefix.count)) } ?? 0
    }

    static let rules =
        #"{"apps": [{"identifier": "a", "name": "A", "scheme": "a"}], "actions": [{"regex": "https://a\\.example/(\\d+)", "formats": [{"appId": "a", "format": "a://$1"}]}]}"#

    @Test(
        .enabled(
            if: nginx != nil || SharedData.isCI,
            "nginx is not installed (scripts/test installs it on CI); the nginx cache test is skipped"
        )
    )
    func nginxServesRepeatsRevalidatesAndSeesAReload() async throws {
        let nginx = try #require(Self.nginx, "nginx must be installed on CI (scripts/test installs it)")
        let directory = try TemporaryDirectory()
        let manifest = try directory.write(Self.rules, named: "rules.json")
        let arguments = [
            "--offline", "--manifest", manifest, "--reload-interval", "0.05", "--cache-max-age", "1",
            "--log-level", "warning",
        ]
        let one = try ServeEndToEndTests.RunningServer(arguments: arguments)
        defer { one.stop() }
        let two = try ServeEndToEndTests.RunningServer(arguments: arguments)
        defer { two.stop() }
        let ports = [one.port, two.port]
        let proxy = try RunningNginx(nginx, directory: directory.url, replicas: ports)
        defer { proxy.stop() }
        let port = proxy.port
        let path = "/v1/resolve?url=https%3A%2F%2Fa.example%2F7"
        let url = "http://127.0.0.1:\(port)\(path)"
        // nginx is up once it answers (it was just started); each replica gives the same tag on its own.
        let first = try await Self.poll(url) { $0.status == 200 }
        let log = { proxy.log }
        try #require(first.status == 200, "nginx did not answer: \(log())")
        #expect(first.cacheStatus == "MISS")
        #expect(first.body.contains("a://7"))
        let tag = try #require(first.tag)
        for replica in ports {
            #expect(try await Self.get("http://127.0.0.1:\(replica)\(path)").tag == tag)
        }
        let resolved = try await Self.answered(ports[0], status: 200) + Self.answered(ports[1], status: 200)

        // A repeated request is served by nginx: a HIT, and no replica answered it.
        let repeated = try await Self.get(url)
        #expect(repeated.cacheStatus == "HIT")
        #expect(repeated.body == first.body && repeated.tag == tag)
        #expect(try await Self.answered(ports[0], status: 200) + Self.answered(ports[1], status: 200) == resolved)

        // A client that has the answer gets 304 with no body.
        let conditional = try await Self.get(url, ifNoneMatch: tag)
        #expect(conditional.status == 304)
        #expect(conditional.body.isEmpty)

        // Once the answer is older than max-age, nginx revalidates it with its tag: a replica answers 304.
        let revalidated = try await Self.poll(url) { $0.cacheStatus == "REVALIDATED" }
        #expect(revalidated.cacheStatus == "REVALIDATED", "\(log())")
        #expect(revalidated.body == first.body && revalidated.tag == tag)
        #expect(try await Self.answered(ports[0], status: 304) + Self.answered(ports[1], status: 304) >= 1)

        // New rules: both replicas reload, and the next revalidation brings the new answer under a new tag.
        try Data(Self.rules.replacingOccurrences(of: "a://$1", with: "a://item/$1").utf8)
            .write(to: URL(fileURLWithPath: manifest))
        for replica in ports {
            let health = try await Self.poll("http://127.0.0.1:\(replica)/healthz") {
                $0.body.contains(#""generation":2"#)
            }
            #expect(health.body.contains(#""generation":2"#))
        }
        let reloaded = try await Self.poll(url) { $0.tag != tag }
        #expect(reloaded.status == 200)
        #expect(reloaded.tag != tag)
        #expect(reloaded.body.contains("a://item/7"))
        let newTag = try #require(reloaded.tag)
        #expect(try await Self.get(url, ifNoneMatch: newTag).status == 304)
        let old = try await Self.get(url, ifNoneMatch: tag)
        #expect(old.status == 200 && old.body == reloaded.body)
        print(
            "nginx: \(first.cacheStatus ?? "-") \(tag), \(repeated.cacheStatus ?? "-"), client 304, "
                + "\(revalidated.cacheStatus ?? "-") \(tag), reload: \(reloaded.cacheStatus ?? "-") \(newTag)"
        )
    }

    /// One action whose script asks an API on 127.0.0.1 (`port`) for the native URL, as the music scripts ask song.link.
    static func onlineRules(port: Int) -> String {
        #"{"apps": [{"identifier": "a", "name": "A", "scheme": "a"}], "actions": [{"regex": "https://a\\.example/(\\d+)", "formats": [{"appId": "a", "script2": "function process(url, done) { var res = jsonRequest('http://127.0.0.1:\#(port)/lookup?url=' + encodeURIComponent(url)); done(res ? res.native : null); }"}]}]}"#
    }

    /// An answer built from an upstream response that is fresh for a while is cacheable too (#28): a replica online,
    /// its script's API answering with `max-age=300`; nginx keeps the answer, and a repeat reaches neither the replica
    /// nor the API.
    @Test(
        .enabled(
            if: nginx != nil || SharedData.isCI,
            "nginx is not installed (scripts/test installs it on CI); the nginx cache test is skipped"
        )
    )
    func nginxServesAnAnswerMadeOnline() async throws {
        let nginx = try #require(Self.nginx, "nginx must be installed on CI (scripts/test installs it)")
        let api = try await LoopbackHTTPServer.start { _ in
            .text(#"{"native": "a://7"}"#, headers: [.init("Cache-Control", "max-age=300")])
        }
        defer { Task { await api.stop() } }
        let directory = try TemporaryDirectory()
        let manifest = try directory.write(Self.onlineRules(port: api.port), named: "rules.json")
        let replica = try ServeEndToEndTests.RunningServer(arguments: [
            "--allow-private-addresses", "--manifest", manifest, "--cache-max-age", "60", "--log-level", "warning",
        ])
        defer { replica.stop() }
        let proxy = try RunningNginx(nginx, directory: directory.url, replicas: [replica.port])
        defer { proxy.stop() }
        let port = proxy.port
        let url = "http://127.0.0.1:\(port)/v1/resolve?url=https%3A%2F%2Fa.example%2F7"
        let first = try await Self.poll(url) { $0.status == 200 }
        let log = { proxy.log }
        try #require(first.status == 200, "nginx did not answer: \(log())")
        #expect(first.cacheStatus == "MISS")
        #expect(first.body.contains("a://7"))
        #expect(first.tag != nil)
        let resolved = try await Self.answered(replica.port, status: 200)
        let repeated = try await Self.get(url)
        #expect(repeated.cacheStatus == "HIT")
        #expect(repeated.body == first.body)
        #expect(try await Self.answered(replica.port, status: 200) == resolved)
        #expect(api.requestCount == 1)
    }

    /// The configuration the test runs is the one `Docs/Deploying.md` gives.
    @Test func theDeploymentGuideGivesTheTestedConfiguration() throws {
        let guide = try String(
            contentsOf: SharedData.packageRoot.appendingPathComponent("Docs/Deploying.md"),
            encoding: .utf8
        )
        for directive in Self.cachedLocation + ["keys_zone=switchyard:10m", "keepalive 8;"] {
            #expect(guide.contains(directive), "Docs/Deploying.md lacks \(directive)")
        }
    }
}
