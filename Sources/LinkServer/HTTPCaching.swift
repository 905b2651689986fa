import Crypto
import HTTPTypes
import Hummingbird
import LinkFetching
import LinkResolver
import LinkRules
import NIOCore

/// The HTTP caching of the answers made from nothing but the server's version, its rules and the request (the
/// resolution routes, `/v1/apps`, `/v1/app-types`, `/v1/choose`, `/openapi.json`), so that replicas behind any
/// standard cache scale out:
///
/// - `ETag`: a strong entity tag (`EntityTag(madeFrom:)`) over what the answer is made from, known before the answer is made;
/// - `Cache-Control`: `public, max-age=N` (``ServerConfiguration/cacheMaxAge``, or less when the answer's
///   `Cacheability` says so), or `no-cache` for 0 (kept, but revalidated every time); `no-store` for an answer that
///   must not be kept (a resolution that asked the network or ran out of time: made anew for each request);
/// - `If-None-Match` (RFC 9110 §13.1.2, weak comparison, a list or `*`): `304 Not Modified` with the tag and
///   `Cache-Control` and no body. A listed tag that matches is answered without making the answer, since a tag is
///   only ever sent with a reproducible answer, which making again would give byte for byte; `*` is answered `304`
///   once the answer is made and is reproducible.
///
/// No `Vary`: no answer depends on a request header (the routes take their parameters in the query, and the server
/// does not compress). Errors are `no-store` (``APIError``).
struct HTTPCaching: Sendable {
    /// The longest a cache may keep an answer (whole seconds; zero: always revalidated).
    let maxAge: Int64
    /// `Cache-Control` of an answer that may be kept for ``maxAge``.
    let cacheControl: String

    /// `Cache-Control` of an answer that must not be kept.
    static let noStore = "no-store"

    /// Answers kept for `maxAge` (whole seconds; zero: always revalidated).
    init(maxAge: Duration) {
        self.maxAge = max(0, maxAge.components.seconds)
        cacheControl = Self.cacheControl(seconds: self.maxAge)
    }

    private static func cacheControl(seconds: Int64) -> String {
        seconds > 0 ? "public, max-age=\(seconds)" : "no-cache"
    }

    /// `Cache-Control` for an answer of this cacheability: `no-store`, or the server's max-age, shortened to what the
    /// answer allows (whole seconds, rounded down).
    func cacheControl(for cacheability: Cacheability) -> String {
        guard cacheability.allowsStoring else { return Self.noStore }
        guard let limit = cacheability.maximumAge else { return cacheControl }
        return Self.cacheControl(seconds: min(maxAge, limit.components.seconds))
    }

    /// Answers `request` with what `make` makes, tagged `tag`, or `304` for a client or cache that has it already;
    /// `make` says how long its answer may be kept (only answers that may be kept are tagged).
    func answer<Document: ResponseGenerator>(
        _ request: Request,
        context: some RequestContext,
        tag: EntityTag,
        make: () async throws -> (document: Document, cacheability: Cacheability)
    ) async throws -> Response {
        let condition = EntityTag.list(request.headers[values: .ifNoneMatch])
        if condition?.lists(tag) == true { return notModified(tag, cacheControl: cacheControl) }
        let made = try await make()
        var response = try made.document.response(from: request, context: context)
        let control = cacheControl(for: made.cacheability)
        guard made.cacheability.allowsStoring else {
            response.headers[.cacheControl] = control
            return response
        }
        if condition == .any { return notModified(tag, cacheControl: control) }
        response.headers[.eTag] = tag.header
        response.headers[.cacheControl] = control
        return response
    }

    /// Answers `request` with the document `make` makes, tagged by `parts` (what it is made from), or `304` for a client
    /// or cache that has it already.
    ///
    /// An answer that depends on `parts` alone (`unlimited`) is tagged by them, known before it is made, so a listed
    /// tag is answered without making it. An answer built from responses of other servers (`upTo`: fresh for a while)
    /// is tagged by `parts` and its own bytes: the same request may give other bytes once those responses change, and
    /// a cache revalidating it must then get them; such a tag is checked after the answer is made.
    func answer<Document: Encodable>(
        _ request: Request,
        tagParts parts: [String],
        make: () async throws -> (document: Document, cacheability: Cacheability)
    ) async throws -> Response {
        let keyTag = EntityTag(madeFrom: parts)
        let condition = EntityTag.list(request.headers[values: .ifNoneMatch])
        if condition?.lists(keyTag) == true { return notModified(keyTag, cacheControl: cacheControl) }
        let made = try await make()
        let body = try DocumentEncoder.documentBytes(made.document)
        var response = Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .contentLength: String(body.count)],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        )
        let control = cacheControl(for: made.cacheability)
        guard made.cacheability.allowsStoring else {
            response.headers[.cacheControl] = control
            return response
        }
        var tag = keyTag
        if made.cacheability.maximumAge != nil {
            tag = EntityTag(madeFrom: parts + ["content:" + StableHash.hexadecimal(SHA256.hash(data: body))])
            if condition?.lists(tag) == true { return notModified(tag, cacheControl: control) }
        }
        if condition == .any { return notModified(tag, cacheControl: control) }
        response.headers[.eTag] = tag.header
        response.headers[.cacheControl] = control
        return response
    }

    /// Answers `request` with what `make` makes, an answer that depends on its tag alone.
    func answer<Document: ResponseGenerator>(
        _ request: Request,
        context: some RequestContext,
        tag: EntityTag,
        make: () async throws -> Document
    ) async throws -> Response {
        try await answer(request, context: context, tag: tag) { (try await make(), .unlimited) }
    }

    /// `304 Not Modified`: the headers a `200` would have had for caching, no body.
    func notModified(_ tag: EntityTag, cacheControl: String) -> Response {
        Response(status: .notModified, headers: [.eTag: tag.header, .cacheControl: cacheControl])
    }
}

extension EntityTag {
    /// The strong tag of an answer that this version of the server makes from `parts`: the SHA-256 (its first 128
    /// bits, in hex) of the server's version and of the parts, each hashed with its length first, so that no two
    /// lists of parts give the same bytes. Strong, since the same parts give the same bytes. Derived from content,
    /// never from a process's state (not from a generation number), so that replicas serving the same rules agree on
    /// every tag.
    init(madeFrom parts: [String]) {
        var hash = SHA256()
        for part in [SwitchyardVersion.current] + parts {
            let bytes = Array(part.utf8)
            withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { hash.update(bufferPointer: $0) }
            hash.update(data: bytes)
        }
        self.init(opaque: StableHash.hexadecimal(hash.finalize().prefix(16)))
    }
}
