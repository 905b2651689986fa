import Foundation
import LinkFetching
import LinkFetchingHTTP
import SwitchyardTestSupport
import Testing

/// What a shared cache stores, and for how long, from the response's headers (RFC 9111 §3, §4.2), hostile ones
/// included.
@Suite struct CacheFreshnessTests {
    let time = TestTime()

    /// One case: the response's headers (`DATE±N` stands for the server's date moved by N seconds), the request's
    /// extra headers, and the freshness expected on the first answer (nil: not stored).
    struct Case: Sendable, CustomTestStringConvertible {
        var headers: [(String, String)]
        var requestHeaders: [(String, String)] = []
        var status = 200
        var freshness: Int?
        var testDescription: String { headers.map { "\($0.0): \($0.1)" }.joined(separator: "; ") }
    }

    static let lifetimes: [Case] = [
        Case(headers: [("Cache-Control", "max-age=600")], freshness: 600),
        Case(headers: [("Cache-Control", "s-maxage=30, max-age=600")], freshness: 30),
        Case(headers: [("Cache-Control", "max-age=600"), ("Age", "100")], freshness: 500),
        Case(headers: [("Expires", "DATE+120")], freshness: 120),
        Case(headers: [("Expires", "DATE+120"), ("Cache-Control", "max-age=10")], freshness: 10),
        Case(headers: [("Expires", "0")], freshness: 0),
        Case(headers: [("Last-Modified", "DATE-432000")], freshness: 43_200),
        Case(headers: [("Last-Modified", "DATE-86400000")], freshness: 86_400),
        Case(
            headers: [("Cache-Control", "public, max-age=60")],
            requestHeaders: [("Authorization", "Bearer x")],
            freshness: 60
        ),
        Case(headers: [("Cache-Control", "max-age=60")], status: 404, freshness: 60),
        Case(headers: [], status: 404, freshness: 0),
        // Not stored by a shared cache.
        Case(headers: [("Cache-Control", "no-store, max-age=60")], freshness: nil),
        Case(headers: [("Cache-Control", "private, max-age=60")], freshness: nil),
        Case(headers: [("Cache-Control", "private=\"Set-Cookie\", max-age=60")], freshness: nil),
        Case(
            headers: [("Cache-Control", "max-age=60")],
            requestHeaders: [("Authorization", "Bearer x")],
            freshness: nil
        ),
        Case(
            headers: [("Cache-Control", "max-age=60")],
            requestHeaders: [("Cache-Control", "no-store")],
            freshness: nil
        ),
        Case(headers: [("Cache-Control", "max-age=60"), ("Vary", "*")], freshness: nil),
        Case(headers: [], status: 302, freshness: nil),
        Case(headers: [("Cache-Control", "max-age=60")], status: 299, freshness: nil),
        Case(headers: [], status: 500, freshness: nil),
    ]

    static let hostile: [Case] = [
        Case(headers: [("Cache-Control", "max-age=abc")], freshness: 0),
        Case(headers: [("Cache-Control", "max-age=-1")], freshness: 0),
        Case(headers: [("Cache-Control", "max-age=1e9")], freshness: 0),
        Case(headers: [("Cache-Control", "max-age=60, max-age=3600")], freshness: 0),
        Case(headers: [("Cache-Control", "max-age=\"90\", ,, =x, foo=\"a,b\"")], freshness: 90),
        Case(headers: [("Cache-Control", "max-age=\"unclosed")], freshness: 0),
        Case(headers: [("Cache-Control", "max-age=99999999999999999999999999999")], freshness: 2_147_483_648),
        Case(headers: [("Cache-Control", "max-age=600"), ("Age", "-5")], freshness: 600),
        Case(headers: [("Cache-Control", "max-age=600"), ("Age", "99999999999999999999")], freshness: 0),
        Case(headers: [("Cache-Control", "max-age=600"), ("Age", "2147483648")], freshness: 0),
        Case(headers: [("Cache-Control", "max-age=600"), ("Date", "yesterday")], freshness: 600),
        Case(headers: [("Cache-Control", "max-age=600"), ("Date", "DATE+99999")], freshness: 600),
        Case(headers: [("Cache-Control", "max-age=600"), ("Date", "DATE-700")], freshness: 0),
        Case(headers: [("Expires", "Thu, 99 Foo 2026 25:61:61 GMT")], freshness: 0),
        Case(headers: [("Expires", "DATE+60"), ("Expires", "DATE+6000")], freshness: 0),
        Case(headers: [("Last-Modified", "DATE+86400")], freshness: 0),
        Case(headers: [("Last-Modified", "Sun, 06 Nov 1994 08:49:37 GMT")], freshness: 86_400),
        Case(
            headers: [("Cache-Control", "max-age=60"), ("Vary", (0..<40).map { "X-\($0)" }.joined(separator: ","))],
            freshness: nil
        ),
        Case(
            headers: [("Cache-Control", (0..<2000).map { "x\($0)" }.joined(separator: ", ") + ", max-age=5")],
            freshness: 0
        ),
    ]

    @Test(arguments: lifetimes + hostile)
    func freshnessFollowsTheHeaders(_ test: Case) async throws {
        let server = try await Server.start { [time] _ in
            var headers: [Header] = [.init("Date", time.httpDate)]
            for (name, value) in test.headers {
                if name == "Date" { headers.removeAll { $0.name == "Date" } }
                headers.append(.init(name, Self.expand(value, time)))
            }
            return .text("body", status: test.status, headers: headers)
        }
        let fetcher = CachingFetcher(
            wrapping: LiveFetcher(policy: testPolicy()),
            cache: HTTPCache(configuration: HTTPCache.Configuration(), clock: time.clock)
        )
        let follow = test.status / 100 != 3
        let first = try await fetcher.fetch(
            request(server, "/x", headers: test.requestHeaders, followRedirects: follow)
        )
        let second = try await fetcher.fetch(
            request(server, "/x", headers: test.requestHeaders, followRedirects: follow)
        )
        await server.stop()
        #expect(first.freshness == test.freshness.map { .seconds($0) })
        let fresh = (test.freshness ?? 0) > 0
        #expect(second.cacheStatus == (fresh ? .hit : .miss))
        #expect(server.requestCount == (fresh ? 1 : 2))
    }

    /// `DATE±N`: the server's date moved by N seconds, as an HTTP date.
    static func expand(_ value: String, _ time: TestTime) -> String {
        guard value.hasPrefix("DATE"), let offset = Double(value.dropFirst(4)) else { return value }
        return time.httpDate(in: offset)
    }
}
