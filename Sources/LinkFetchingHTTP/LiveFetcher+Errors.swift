import AsyncHTTPClient
import LinkFetching
import NIOCore
import NIOHTTPCompression
import NIOPosix
import NIOSSL

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension LiveFetcher {
    /// Translates AsyncHTTPClient, NIO and TLS errors into ``FetchError`` for `url`, telling apart the failures that
    /// say something about the host (a refused connection, a connection that could not be made in time, a failed
    /// TLS handshake) from the others, in sentences of our own.
    static func mapped(_ error: any Error, url: String, limit: Int, policy: NetworkPolicy) -> FetchError {
        if let error = error as? FetchError { return error }
        if let error = error as? NIOHTTPDecompression.DecompressionError, error == .limit {
            return .tooLarge(url, limit: limit)
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout:
                return FetchError(
                    .connectTimeout,
                    url: url,
                    message: "No connection to the host of '\(url)' could be made within \(policy.connectTimeout)."
                )
            case .readTimeout:
                return FetchError(
                    .timeout,
                    url: url,
                    message: "The host of '\(url)' sent nothing for \(policy.readTimeout) (the read time limit)."
                )
            case .deadlineExceeded, .writeTimeout, .getConnectionFromPoolTimeout:
                return FetchError(.timeout, url: url, message: "Fetching '\(url)' took longer than its time limit.")
            case .remoteConnectionClosed:
                return FetchError(
                    .transport,
                    url: url,
                    message: "The host of '\(url)' closed the connection before it answered."
                )
            default:
                break
            }
        }
        if refusesConnections(error) {
            return FetchError(
                .connectionRefused,
                url: url,
                message:
                    "The host of '\(url)' refused the connection: nothing accepts connections at its address and port."
            )
        }
        if let reason = tlsFailure(error) {
            return FetchError(
                .tlsFailure,
                url: url,
                message: "The TLS handshake with the host of '\(url)' failed: \(reason)."
            )
        }
        if error is CancellationError {
            return FetchError(.timeout, url: url, message: "Fetching '\(url)' was cancelled before it finished.")
        }
        return .transport(url, error)
    }

    /// Whether `error` is a refused connection: every address tried refused it (`ECONNREFUSED`).
    private static func refusesConnections(_ error: any Error) -> Bool {
        if let error = error as? NIOConnectionError {
            return !error.connectionErrors.isEmpty && error.connectionErrors.allSatisfy { refusesConnections($0.error) }
        }
        if let error = error as? IOError { return error.errnoCode == ECONNREFUSED }
        return false
    }

    /// What went wrong in a TLS handshake, in words; nil when `error` is not a TLS failure.
    private static func tlsFailure(_ error: any Error) -> String? {
        if let error = error as? NIOSSLExtraError, error == .failedToValidateHostname {
            return "its certificate does not name the host"
        }
        let text: String
        switch error {
        case let error as NIOSSLError: text = String(describing: error)
        case let error as BoringSSLError: text = String(describing: error)
        case is NIOSSLExtraError: text = ""
        default: return nil
        }
        if text.contains("CERTIFICATE_VERIFY_FAILED") { return "its certificate is not trusted" }
        if text.contains("WRONG_VERSION_NUMBER") || text.contains("PACKET_LENGTH_TOO_LONG") {
            return "the host does not speak TLS on that port"
        }
        return "the host and the client agreed on no way to secure the connection"
    }

    /// Runs `body` and fails with `.timeout` once `limit` has passed, cancelling the work.
    static func withTimeLimit<T: Sendable>(
        _ limit: Duration,
        url: String,
        _ body: @escaping @Sendable () async throws(FetchError) -> T
    ) async throws(FetchError) -> T {
        let outcome = await withTaskGroup(of: Result<T, FetchError>?.self) { group in
            group.addTask {
                do throws(FetchError) { return .success(try await body()) } catch { return .failure(error) }
            }
            group.addTask {
                do { try await Task.sleep(for: limit) } catch { return nil }
                return .failure(.timeout(url, limit))
            }
            var result: Result<T, FetchError> = .failure(.timeout(url, limit))
            while let next = await group.next() {
                guard let next else { continue }
                result = next
                group.cancelAll()
                break
            }
            return result
        }
        return try outcome.get()
    }
}

extension Duration {
    /// The duration in nanoseconds, clamped to `Int64` (durations here are seconds, never centuries).
    var nanosecondsClamped: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        return overflow ? Int64.max : scaled.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}
