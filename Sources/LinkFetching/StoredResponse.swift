import Foundation
import HTTPTypes
import WebLinks

/// One response kept by an ``HTTPCache``: what RFC 9111 needs to judge it later (when it was asked and answered, the
/// request headers its `Vary` names), and its freshness rules.
struct StoredResponse: Sendable {
    /// The URL asked for, as sent: the key it is stored under.
    var url: String
    /// The method that got it: a GET answers GET and HEAD, a HEAD answers HEAD.
    var method: FetchRequest.Method
    /// The response as stored: connection-only fields removed, `Date` added when the server sent none.
    var response: FetchResponse
    /// When the request that got it was sent, on the cache's clock.
    var requestTime: Date
    /// When it arrived.
    var responseTime: Date
    /// The server's `Date`, or the arrival time when it sent none or an unreadable one (the `Date` a cache adds
    /// is whole seconds, and would otherwise age the response by up to a second).
    var dateValue: Date
    /// The request's value of each field its `Vary` names (lower-case name → value, nil when absent).
    var selecting: [String: String?]
    /// Its `Cache-Control`.
    var control: CacheControl
    /// The lifetime the request that got it asked for when the server says nothing
    /// (``FetchRequest/fallbackFreshness``), in seconds.
    var fallbackLifetime: TimeInterval? = nil

    /// Fields a cache does not store (RFC 9111 §3.1): they describe one connection, not the response.
    static let connectionFields: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade", "proxy-authenticate",
        "proxy-authentication-info",
    ]

    /// The memory it takes, roughly: body, fields and bookkeeping.
    var cost: Int {
        response.body.count + response.url.text.utf8.count + 256
            + response.headers.reduce(0) { $0 + $1.name.rawName.utf8.count + $1.value.utf8.count + 4 }
            + selecting.reduce(0) { $0 + $1.key.utf8.count + ($1.value?.utf8.count ?? 0) + 8 }
    }

    /// Whether the redirect it holds must be followed before it answers a request that follows redirects.
    var isRedirect: Bool { [301, 302, 303, 307, 308].contains(response.status) }

    /// Whether it may answer `request`: the method allows it, redirects agree, and every `Vary` field matches.
    func answers(_ request: FetchRequest) -> Bool {
        guard method == request.method || (method == .get && request.method == .head) else { return false }
        guard !(request.followRedirects && isRedirect) else { return false }
        return selecting.allSatisfy { name, value in Self.value(of: name, in: request.headers) == value }
    }

    /// The value of the field `name` (lower case) in `fields`: every line, trimmed, joined with ", " (the
    /// normalisation RFC 9111 §4.1 allows); nil when absent.
    static func value(of name: String, in fields: HTTPFields) -> String? {
        let values = fields.filter { $0.name.canonicalName == name }.map { String($0.value.trimmingOWS) }
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    // MARK: Age and freshness (RFC 9111 §4.2)

    /// The current age in seconds at `now` (§4.2.3): what the server and caches before us said, plus the time it has
    /// been here. A missing, negative or non-numeric `Age` counts as zero; a huge one as 2³¹ seconds.
    func age(at now: Date) -> TimeInterval {
        let ageValue = response.headers[.age].flatMap { text -> Int? in
            guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
            return Int(text) ?? CacheControl.maxSeconds  // digits too many for Int: older than 2³¹ anyway
        }
        let apparentAge = max(0, responseTime.timeIntervalSince(dateValue))
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let correctedAge = TimeInterval(min(ageValue ?? 0, CacheControl.maxSeconds)) + responseDelay
        return max(apparentAge, correctedAge) + max(0, now.timeIntervalSince(responseTime))
    }

    /// The freshness lifetime in seconds, as a shared cache reads it (§4.2.1): `s-maxage`, else `max-age`, else
    /// `Expires` − `Date`, else the heuristic of ``HTTPCache/Configuration`` from `Last-Modified`, else the requester's
    /// fallback (``FetchRequest/fallbackFreshness``), else a permanent redirect's lifetime. Invalid values give zero
    /// (stale).
    func lifetime(_ configuration: HTTPCache.Configuration) -> TimeInterval {
        for directive in ["s-maxage", "max-age"] {
            switch control.seconds(directive) {
            case .valid(let seconds): return TimeInterval(seconds)
            case .invalid: return 0
            case .absent: continue
            }
        }
        let expires = response.headers[values: .expires]
        if !expires.isEmpty {
            guard expires.count == 1, let date = HTTPDate.parse(expires[0]) else { return 0 }
            return max(0, date.timeIntervalSince(dateValue))
        }
        let heuristic = Self.heuristicallyCacheable.contains(response.status) || control.has("public")
        let lastModified = response.headers[.lastModified].flatMap(HTTPDate.parse)
        if heuristic, let lastModified, lastModified < dateValue {
            let heuristic = dateValue.timeIntervalSince(lastModified) * configuration.heuristicFraction
            return min(heuristic, configuration.maxHeuristicLifetime.timeInterval)
        }
        if let fallbackLifetime { return fallbackLifetime }
        if heuristic, [301, 308].contains(response.status) {
            return configuration.permanentRedirectLifetime.timeInterval
        }
        return 0
    }

    /// Whether it must be confirmed with the server before every use (`no-cache`).
    var needsRevalidation: Bool { control.has("no-cache") }

    /// How long past its freshness it may still answer when the server fails (RFC 5861 stale-if-error), in seconds:
    /// the response's own `stale-if-error=N`; otherwise nothing when the response forbids stale answers
    /// (`must-revalidate`, `proxy-revalidate`, `s-maxage`, `no-cache`: RFC 9111 §4.2.4), else the configured default.
    func staleIfErrorAllowance(_ configuration: HTTPCache.Configuration) -> TimeInterval {
        if case .valid(let seconds) = control.seconds("stale-if-error") { return TimeInterval(seconds) }
        let forbidden = ["must-revalidate", "proxy-revalidate", "s-maxage", "no-cache"].contains(where: control.has)
        return forbidden ? 0 : configuration.staleIfError.timeInterval
    }

    /// The status codes whose responses may be given a heuristic freshness (RFC 9110 §15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501]
}
