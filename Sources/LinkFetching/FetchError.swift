/// The one error type of `LinkFetching`: what went wrong, for which URL (or redirect hop), in one sentence.
public struct FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure, stable enough to test against.
    public enum Code: String, Sendable, Hashable, Codable, CaseIterable {
        /// The text is not an absolute URL with a host.
        case invalidURL
        /// The scheme is not one the policy allows (only http and https by default).
        case forbiddenScheme
        /// The port is not one the policy allows (80 and 443 by default).
        case forbiddenPort
        /// The host resolves to a loopback, private, link-local, multicast or reserved address.
        case blockedAddress
        /// The host name could not be resolved (no such name, or no address for it).
        case unresolvableHost
        /// Nobody listens at the host's address and port: the connection was refused (or reset before any answer).
        case connectionRefused
        /// The connection to the host could not be made within the connect time limit
        /// (``NetworkPolicy/connectTimeout``).
        case connectTimeout
        /// The TLS handshake with the host failed: an untrusted or mismatched certificate, or no common protocol.
        case tlsFailure
        /// The host is taken for down after failures that say so (`HostHealth`), and the request was not sent; its
        /// message says when the host will be tried again.
        case hostDown
        /// More redirects than the policy allows.
        case tooManyRedirects
        /// A redirect leads back to a link already visited on the way.
        case redirectLoop
        /// A redirect's `Location` is missing, malformed, or carries control or raw non-ASCII characters.
        case badLocation
        /// The (decoded) body is larger than the policy allows.
        case responseTooLarge
        /// The request took longer than its time limit, or the server sent nothing for the read time limit
        /// (``NetworkPolicy/readTimeout``).
        case timeout
        /// The fetcher refuses all network access (``OfflineFetcher``).
        case offline
        /// A ``ReplayingFetcher`` has no fixture for the request.
        case notRecorded
        /// A fixture or cache file could not be read or written.
        case storage
        /// The server answered with a status the caller cannot use (for example a failed download).
        case httpStatus
        /// The connection failed or the server's answer could not be read.
        case transport
        /// Downloaded data was rejected by the caller's validation.
        case invalidContent
        /// The host asked to be left alone for a while (`429` or `503` with `Retry-After`), and that time has not
        /// passed; the request was not sent (``PoliteFetcher``).
        case backedOff
    }

    /// The kind of failure.
    public var code: Code

    /// The stable identifier documents show (`E_REDIRECT_LOOP`, `E_SSRF_BLOCKED`, …): the code's words in capitals,
    /// an acronym one word (`invalidURL` is `E_INVALID_URL`).
    public var identifier: String {
        switch code {
        case .blockedAddress: "E_SSRF_BLOCKED"
        default:
            "E_"
                + zip(code.rawValue, [" "] + code.rawValue).reduce(into: "") { result, pair in
                    let (character, previous) = pair
                    if character.isUppercase && !previous.isUppercase { result += "_" }
                    result += character.uppercased()
                }
        }
    }
    /// The URL (or redirect hop) the failure is about, as text.
    public var url: String
    /// One sentence naming the URL and what failed.
    public var message: String
    /// How long this failure stands as the answer to the same request (a host that is down is not asked again for
    /// that long, so an answer made from it may be kept as long); nil: it says nothing beyond this moment.
    public var freshness: Duration? = nil

    /// Creates an error; `message` should name `url` and quote the offending value.
    public init(_ code: Code, url: String, message: String) {
        self.code = code
        self.url = url
        self.message = message
    }

    /// The message, for printing.
    public var description: String { message }
}

extension FetchError {
    package static func invalidURL(_ url: String, _ reason: String) -> FetchError {
        FetchError(.invalidURL, url: url, message: "'\(url)' is not a usable URL: \(reason).")
    }

    package static func timeout(_ url: String, _ limit: Duration) -> FetchError {
        FetchError(.timeout, url: url, message: "Fetching '\(url)' took longer than the limit of \(limit).")
    }

    /// The caller's task was cancelled while it waited (reported as a time-out, as `LiveFetcher` reports it).
    package static func cancelled(_ url: String) -> FetchError {
        FetchError(.timeout, url: url, message: "Fetching '\(url)' was cancelled before it finished.")
    }

    package static func transport(_ url: String, _ underlying: any Error) -> FetchError {
        FetchError(.transport, url: url, message: "Fetching '\(url)' failed: \(String(describing: underlying)).")
    }

    package static func tooLarge(_ url: String, limit: Int) -> FetchError {
        FetchError(
            .responseTooLarge,
            url: url,
            message: "The response from '\(url)' is larger than the limit of \(limit) bytes (after decompression)."
        )
    }
}
