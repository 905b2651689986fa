import Foundation
import HTTPTypes
import WebLinks

extension StoredResponse {
    /// The status codes whose meaning the cache knows (RFC 9110, plus 429 and 451), so it may store them; 206 is
    /// left out (no range requests are combined here) and 304 only ever refreshes a stored response.
    static let understood: Set<Int> = [
        200, 201, 202, 203, 204, 205, 300, 301, 302, 303, 307, 308, 400, 401, 402, 403, 404, 405, 406, 407, 408, 409,
        410, 411, 412, 413, 414, 415, 416, 417, 421, 422, 426, 429, 451, 500, 501, 502, 503, 504, 505,
    ]

    /// The most fields a `Vary` may name before the response is not stored (each one multiplies the variants).
    static let maxVaryFields = 16

    /// Why `response` to `request` cannot be stored by a shared cache (RFC 9111 §3), or nil when it can.
    static func refusal(
        of response: FetchResponse,
        to request: FetchRequest,
        configuration: HTTPCache.Configuration
    ) -> String? {
        let control = CacheControl(response.headers)
        guard understood.contains(response.status) else { return "status \(response.status) is not understood" }
        // must-understand: a cache that knows the status may ignore no-store (§5.2.2.3).
        if control.has("no-store") && !control.has("must-understand") { return "no-store" }
        if control.has("private") { return "private (a shared cache)" }
        if CacheControl(request.headers).has("no-store") { return "the request said no-store" }
        if request.headers[.authorization] != nil,
            !["must-revalidate", "public", "s-maxage"].contains(where: control.has)
        {
            return "the request carried Authorization (§3.5)"
        }
        if !response.redirects.isEmpty { return "it came through redirects, whose own answers were not seen" }
        if response.isTruncated { return "only a prefix of its body was read" }
        let explicit = control.has("max-age") || control.has("s-maxage") || response.headers[.expires] != nil
        guard
            explicit || control.has("public") || heuristicallyCacheable.contains(response.status)
                || request.fallbackFreshness != nil
        else {
            return "no freshness information and status \(response.status) is not heuristically cacheable"
        }
        guard varyNames(response.headers) != nil else { return "Vary: * or too many Vary fields" }
        return nil
    }

    /// The lower-cased field names `Vary` lists; nil for `*` or more than ``maxVaryFields``.
    static func varyNames(_ fields: HTTPFields) -> [String]? {
        var names: [String] = []
        for line in fields[values: .vary] {
            for item in line.split(separator: ",") {
                let name = item.trimmingOWS.lowercased()
                if name == "*" { return nil }
                if !name.isEmpty && !names.contains(name) { names.append(name) }
            }
        }
        return names.count <= maxVaryFields ? names : nil
    }

    /// The entry for a storable `response` to `request`: connection fields dropped, a `Date` added when missing
    /// (RFC 9110 §6.6.1), the selecting request fields noted.
    init(request: FetchRequest, response: FetchResponse, requestTime: Date, responseTime: Date) {
        var kept = response
        kept.headers = HTTPFields(response.headers.filter { !Self.connectionFields.contains($0.name.canonicalName) })
        let date = kept.headers[.date].flatMap(HTTPDate.parse)
        if kept.headers[.date] == nil { kept.headers[.date] = HTTPDate.format(responseTime) }
        kept.cacheStatus = nil
        kept.freshness = nil
        var selecting: [String: String?] = [:]
        for name in Self.varyNames(response.headers) ?? [] {
            selecting[name] = .some(Self.value(of: name, in: request.headers))
        }
        self.init(
            url: request.url.requestText,
            method: request.method,
            response: kept,
            requestTime: requestTime,
            responseTime: responseTime,
            dateValue: date ?? responseTime,
            selecting: selecting,
            control: CacheControl(kept.headers),
            fallbackLifetime: request.fallbackFreshness.map(\.timeInterval)
        )
    }

    /// This entry with its fields updated from a `304 Not Modified` (RFC 9111 §4.3.4): every field the 304 sends
    /// replaces the stored ones of that name, except the framing of the stored body.
    func freshened(with notModified: FetchResponse, requestTime: Date, responseTime: Date) -> StoredResponse {
        let kept: Set<String> = Self.connectionFields.union(["content-length", "content-encoding", "content-range"])
        let updates = notModified.headers.filter { !kept.contains($0.name.canonicalName) }
        let replaced = Set(updates.map(\.name.canonicalName))
        var fields = HTTPFields(response.headers.filter { !replaced.contains($0.name.canonicalName) })
        fields.append(contentsOf: updates)
        let date = notModified.headers[.date].flatMap(HTTPDate.parse)
        if notModified.headers[.date] == nil { fields[.date] = HTTPDate.format(responseTime) }
        var copy = self
        copy.dateValue = date ?? responseTime
        copy.response.headers = fields
        copy.requestTime = requestTime
        copy.responseTime = responseTime
        copy.control = CacheControl(fields)
        return copy
    }

    /// The stored response as an answer to `request` at `now`: `Age` set, no body for HEAD, the cache's verdict.
    func answer(
        to request: FetchRequest,
        status: CacheStatus,
        at now: Date,
        configuration: HTTPCache.Configuration
    ) -> FetchResponse {
        var answer = response
        let age = age(at: now)
        answer.headers[.age] = String(Int(min(age, TimeInterval(CacheControl.maxSeconds))))
        if request.method == .head { answer.body = [] }
        answer.cacheStatus = status
        answer.freshness = status == .stale ? .zero : remainingFreshness(at: now, configuration: configuration)
        return answer
    }

    /// How much longer it is fresh at `now`: zero when stale or when it must be revalidated before each use.
    func remainingFreshness(at now: Date, configuration: HTTPCache.Configuration) -> Duration {
        guard !needsRevalidation else { return .zero }
        return .clamped(seconds: max(0, lifetime(configuration) - age(at: now)))
    }
}
