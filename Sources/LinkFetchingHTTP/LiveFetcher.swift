import AsyncHTTPClient
import HTTPTypes
import LinkFetching
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOSSL
import WebLinks

/// Fetches over the network with AsyncHTTPClient, enforcing a `NetworkPolicy` on every redirect hop.
///
/// Redirects are followed here, one hop at a time, never by the client: each hop's URL is checked (scheme,
/// port), its host resolved and every address judged, and the connection is pinned to the checked address.
///
/// Pinning uses `HTTPClient.Configuration.dnsOverride` (host → checked IP) rather than rewriting the URL to the
/// IP with a `Host` header, because the override keeps TLS right for https: SNI and certificate validation
/// still use the host name. Since the override is per client, a hop takes the client made for its host, checked
/// address and port (`HopClients`, shared by the process, on the shared event loop group): its connections are
/// reused by later hops to the same checked address, and never by a hop whose host now resolves elsewhere (DNS
/// rebinding); idle clients are shut down after 30 s, or when more than 64 are kept.
///
/// A `NetworkPolicy.connectTo` override connects elsewhere the same way: the override's checked address in
/// `dnsOverride`, its port in the URL the client is given, and the request's own host in `Host`, so TLS still names
/// and checks the request's host. Certificates are checked against the system's roots and, when given, the extra
/// ones of ``init(policy:trustingPEM:)`` (a private deployment's CA; the tests' CA).
public struct LiveFetcher: LinkFetching {
    /// The safety policy applied to every request and hop.
    public var policy: NetworkPolicy
    /// Certificate authorities trusted besides the system's.
    private var additionalTrustRoots: [NIOSSLCertificate] = []
    /// Their DER bytes, which tell the clients kept for hops apart (`HopClients`).
    private var additionalTrustRootsDER: [[UInt8]] = []

    /// Creates a fetcher with `policy` (the safe defaults unless given).
    public init(policy: NetworkPolicy = .standard) {
        self.policy = policy
    }

    /// Creates a fetcher with `policy` that also trusts the certificate authorities in `pem` (one or more PEM
    /// certificates), besides the system's. Throws `FetchError.Code.invalidContent` when `pem` holds no
    /// certificate it can read.
    public init(policy: NetworkPolicy = .standard, trustingPEM pem: some Collection<UInt8>) throws(FetchError) {
        self.policy = policy
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

    /// Performs `request` under the policy, following redirects hop by hop when the request allows it.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        let limit = request.timeout.map { min($0, policy.timeout) } ?? policy.timeout
        let deadline = NIODeadline.now() + TimeAmount.nanoseconds(limit.nanosecondsClamped)
        return try await Self.withTimeLimit(limit, url: request.url.text) {
            () async throws(FetchError) -> FetchResponse in
            try await follow(request, deadline: deadline)
        }
    }

    private func follow(_ request: FetchRequest, deadline: NIODeadline) async throws(FetchError) -> FetchResponse {
        var current = try policy.check(url: request.url)
        var headers = request.headers
        var visited: [Link] = []
        let limit = min(policy.maxBodyBytes, request.maximumBodyBytes ?? .max)
        while true {
            let connection = try await policy.connection(for: current)
            let isRedirect = { (status: Int) in [301, 302, 303, 307, 308].contains(status) }
            var response = try await hop(
                current,
                connection: connection,
                method: request.method,
                headers: headers,
                limit: limit,
                deadline: deadline,
                skipBodyOf: request.followRedirects ? isRedirect : { _ in false }
            )
            guard request.followRedirects, isRedirect(response.status) else {
                response.redirects = visited
                return response
            }
            let next = try policy.check(url: policy.resolve(location: response.headers[.location], from: current.link))
            // A loop is said as such at its first repeated link, rather than followed until the hop limit.
            guard next.link != request.url, !visited.contains(next.link) else {
                throw FetchError.redirectLoop(back: next.link, start: request.url)
            }
            guard visited.count < policy.maxRedirects else {
                throw FetchError(
                    .tooManyRedirects,
                    url: current.text,
                    message:
                        "'\(request.url)' still redirects after \(policy.maxRedirects) hops (last: '\(current.link)')."
                )
            }
            if next.host != current.host {
                // Credentials meant for one host must not follow a redirect to another.
                headers[.authorization] = nil
                headers[.cookie] = nil
            }
            visited.append(current.link)
            current = next
        }
    }

    /// One exchange with the checked address and port, through a client that connects only there.
    private func hop(
        _ url: CheckedURL,
        connection: (address: IPAddress, port: Int),
        method: FetchRequest.Method,
        headers: HTTPFields,
        limit: Int,
        deadline: NIODeadline,
        skipBodyOf skipBody: (Int) -> Bool
    ) async throws(FetchError) -> FetchResponse {
        let address = connection.address
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(10), read: .seconds(10)),
            decompression: .enabled(limit: .size(limit))
        )
        if !additionalTrustRoots.isEmpty {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.certificates(additionalTrustRoots)]
            configuration.tlsConfiguration = tls
        }
        // The pool would otherwise retry a refused connection with back-off until the deadline, turning
        // "nobody listens" into a timeout; one hop makes one attempt and reports the real cause.
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
            result = .success(try await exchange(client, url, wire, method, headers, limit, deadline, skipBody))
        } catch {
            result = .failure(Self.mapped(error, url: url.text, limit: limit))
        }
        return try result.get()
    }

    private func exchange(
        _ client: HTTPClient,
        _ url: CheckedURL,
        _ wire: (url: String, authority: String?),
        _ method: FetchRequest.Method,
        _ headers: HTTPFields,
        _ limit: Int,
        _ deadline: NIODeadline,
        _ skipBody: (Int) -> Bool
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
        if method == .head || skipBody(status) {
            return FetchResponse(url: url.link, status: status, headers: fields)
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
