import AsyncHTTPClient
import HTTPTypes
import LinkFetching
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOSSL
import WebLinks

/// Fetches over the network with AsyncHTTPClient, enforcing a `NetworkPolicy` on every request: exactly one exchange
/// per call.
///
/// A redirect is returned as it is (its status and `Location`): following redirects is the job of the one redirect
/// layer at the top of a `FetchingStack` (`RedirectFollower`), which sends every hop through the whole stack
/// again, so each hop is checked here, cached, coalesced, paced and counted against its own host. Each request's URL
/// is checked (scheme, port), its host resolved through the policy's resolver and every address judged, and the
/// connection is pinned to the checked address.
///
/// Pinning uses `HTTPClient.Configuration.dnsOverride` (host → checked IP) rather than rewriting the URL to the
/// IP with a `Host` header, because the override keeps TLS right for https: SNI and certificate validation
/// still use the host name. Since the override is per client, a request takes the client made for its host, checked
/// address and port (`HopClients`, shared by the process, on the shared event loop group): its connections are
/// reused by later requests to the same checked address, and never by one whose host now resolves elsewhere (DNS
/// rebinding); idle clients are shut down after 30 s, or when more than 64 are kept.
///
/// Host names are resolved through a `HostResolverCache` (answers kept for a minute, "no such name" for 5 s,
/// concurrent lookups of a name made once), unless the fetcher is made without one.
///
/// Waiting is bounded three ways: the connection must be made within `NetworkPolicy.connectTimeout` (one attempt:
/// a refused connection fails at once with `FetchError.connectionRefused`), the server may stay silent for at
/// most `NetworkPolicy.readTimeout`, and the whole request ends at its time limit (the request's, capped by the
/// policy's). A failed TLS handshake is `FetchError.tlsFailure`: these say something about the host, which the
/// `PoliteFetcher` above keeps.
///
/// A `NetworkPolicy.connectTo` override connects elsewhere the same way: the override's checked address in
/// `dnsOverride`, its port in the URL the client is given, and the request's own host in `Host`, so TLS still names
/// and checks the request's host. Certificates are checked against the system's roots and, when given, the extra
/// ones of ``init(policy:resolverCache:trustingPEM:)`` (a private deployment's CA; the tests' CA).
public struct LiveFetcher: LinkFetching {
    /// The safety policy applied to every request and hop.
    public var policy: NetworkPolicy
    /// Where the answers of the policy's resolver are kept (nil: every request asks the resolver).
    public let resolverCache: HostResolverCache?
    /// Certificate authorities trusted besides the system's.
    private var additionalTrustRoots: [NIOSSLCertificate] = []
    /// Their DER bytes, which tell the clients kept for hops apart (`HopClients`).
    private var additionalTrustRootsDER: [[UInt8]] = []

    /// Creates a fetcher with `policy` (the safe defaults unless given), keeping its resolver's answers in
    /// `resolverCache` (a new cache by default; nil: none).
    public init(policy: NetworkPolicy = .standard, resolverCache: HostResolverCache? = HostResolverCache()) {
        self.policy = policy
        self.resolverCache = resolverCache
    }

    /// Creates a fetcher with `policy` that also trusts the certificate authorities in `pem` (one or more PEM
    /// certificates), besides the system's. Throws `FetchError.Code.invalidContent` when `pem` holds no
    /// certificate it can read.
    public init(
        policy: NetworkPolicy = .standard,
        resolverCache: HostResolverCache? = HostResolverCache(),
        trustingPEM pem: some Collection<UInt8>
    ) throws(FetchError) {
        self.policy = policy
        self.resolverCache = resolverCache
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMBytes(Array(pem))
        } catch {
            certificates = []
        }
        guard !certificates.isEmpty else {
            throw FetchError(
                .invalidContent,
                url: "",
                message:
                    "The trusted CA file holds no PEM certificate (-----BEGIN CERTIFICATE----- … ) that can be read."
            )
        }
        additionalTrustRoots = certificates
        additionalTrustRootsDER = certificates.map { (try? $0.toDERBytes()) ?? Array($0.description.utf8) }
    }

    /// Performs `request` under the policy: one exchange, a redirect returned as it is.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        let limit = request.timeout.map { min($0, policy.timeout) } ?? policy.timeout
        let deadline = NIODeadline.now() + TimeAmount.nanoseconds(limit.nanosecondsClamped)
        return try await Self.withTimeLimit(limit, url: request.url.text) {
            () async throws(FetchError) -> FetchResponse in
            var policy = policy
            if let resolverCache { policy.resolver = resolverCache.resolver(over: policy.resolver) }
            let checked = try policy.check(url: request.url)
            let connection = try await policy.connection(for: checked)
            return try await exchange(request, checked, connection: connection, deadline: deadline)
        }
    }

    /// One exchange with the checked address and port, through a client that connects only there.
    private func exchange(
        _ request: FetchRequest,
        _ url: CheckedURL,
        connection: (address: IPAddress, port: Int),
        deadline: NIODeadline
    ) async throws(FetchError) -> FetchResponse {
        let address = connection.address
        let limit = min(policy.maxBodyBytes, request.maximumBodyBytes ?? .max)
        let connectTimeout = TimeAmount.nanoseconds(policy.connectTimeout.nanosecondsClamped)
        let readTimeout = TimeAmount.nanoseconds(policy.readTimeout.nanosecondsClamped)
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: connectTimeout, read: readTimeout),
            decompression: .enabled(limit: .size(limit))
        )
        if !additionalTrustRoots.isEmpty {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.certificates(additionalTrustRoots)]
            configuration.tlsConfiguration = tls
        }
        // The pool would otherwise retry a refused connection with back-off until the deadline, turning
        // "nobody listens" into a timeout; one request makes one attempt and reports the real cause.
        configuration.connectionPool.retryConnectionEstablishment = false
        // How many requests go to one host at once is the politeness layer's decision (PoliteFetcher): the client
        // keeps a connection for each (its default of 8 queued everything beyond, 50 ms per request in line).
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 1000
        // AsyncHTTPClient looks the override up by the URL's host as it serialises it: bare for names and IPv4,
        // bracketed for IPv6 literals.
        configuration.dnsOverride = [url.host: address.description, "[\(url.host)]": address.description]
        let key = HopClients.Key(
            host: url.host,
            address: address.description,
            port: connection.port,
            limit: limit,
            timeouts: [policy.connectTimeout, policy.readTimeout],
            trustRoots: additionalTrustRootsDER
        )
        let client = HopClients.shared.acquire(key) {
            HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        }
        defer { HopClients.shared.release(key) }
        let result: Result<FetchResponse, FetchError>
        var wire = (url: url.text, authority: String?.none)
        if connection.port != url.port {
            // The override's port goes in the URL the client is given; the request keeps its own authority.
            wire.url = url.link.scheme + "://" + url.link.host + ":\(connection.port)" + url.pathAndQuery
            wire.authority = url.link.host + (url.link.port.map { ":\($0)" } ?? "")
        }
        do {
            result = .success(
                try await send(client, url, wire, request.method, request.headers, limit, request.bodyPrefix, deadline)
            )
        } catch {
            result = .failure(Self.mapped(error, url: url.text, limit: limit, policy: policy))
        }
        return try result.get()
    }

    private func send(
        _ client: HTTPClient,
        _ url: CheckedURL,
        _ wire: (url: String, authority: String?),
        _ method: FetchRequest.Method,
        _ headers: HTTPFields,
        _ limit: Int,
        _ prefix: Int?,
        _ deadline: NIODeadline
    ) async throws -> FetchResponse {
        var request = HTTPClientRequest(url: wire.url)
        request.method = method == .head ? .HEAD : .GET
        // HTTPFields has already made every value legal (no CR, LF or NUL can smuggle in another header).
        for field in headers {
            request.headers.replaceOrAdd(name: field.name.rawName, value: field.value)
        }
        if let authority = wire.authority { request.headers.replaceOrAdd(name: "Host", value: authority) }
        if !request.headers.contains(name: "Accept-Encoding") {
            request.headers.add(name: "Accept-Encoding", value: "gzip, deflate")
        }
        let response = try await client.execute(request, deadline: deadline)
        let status = Int(response.status.code)
        // The client decodes exactly these two codings (NIOHTTPResponseDecompressor); the body handed back is
        // then decoded, so the headers describing the encoded form would mislead a reader or a replay.
        let decoded = ["gzip", "deflate"].contains(response.headers.first(name: "Content-Encoding") ?? "")
        var fields = HTTPFields()
        for header in response.headers {
            guard let name = HTTPField.Name(header.name) else { continue }  // a name HTTP forbids: not a header
            if decoded, name == .contentEncoding || name == .contentLength { continue }
            fields.append(HTTPField(name: name, value: header.value))
        }
        if method == .head {
            return FetchResponse(url: url.link, status: status, headers: fields)
        }
        if let prefix {
            // Only the start is wanted: read until it is there, and leave the rest unread (the connection is closed).
            var body: [UInt8] = []
            var isTruncated = false
            for try await chunk in response.body {
                let wanted = prefix - body.count
                body.append(contentsOf: chunk.readableBytesView.prefix(wanted))
                // The prefix is full: whatever follows is not read (and the answer is taken for truncated).
                if chunk.readableBytes >= wanted {
                    isTruncated = true
                    break
                }
            }
            var answer = FetchResponse(url: url.link, status: status, headers: fields, body: body)
            answer.isTruncated = isTruncated
            return answer
        }
        if !response.headers.contains(name: "Content-Encoding"),
            let declared = response.headers.first(name: "Content-Length").flatMap({ Int($0) }), declared > limit
        {
            throw FetchError.tooLarge(url.text, limit: limit)
        }
        var body: [UInt8] = []
        for try await chunk in response.body {
            guard body.count + chunk.readableBytes <= limit else { throw FetchError.tooLarge(url.text, limit: limit) }
            body.append(contentsOf: chunk.readableBytesView)
        }
        return FetchResponse(url: url.link, status: status, headers: fields, body: body)
    }
}
