import AsyncHTTPClient
import LinkFetching
import NIOCore
import NIOHTTPCompression

extension LiveFetcher {
    /// Translates AsyncHTTPClient and NIO errors into ``FetchError`` for `url`.
    static func mapped(_ error: any Error, url: String, limit: Int) -> FetchError {
        if let error = error as? FetchError { return error }
        if let error = error as? NIOHTTPDecompression.DecompressionError, error == .limit {
            return .tooLarge(url, limit: limit)
        }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout, .getConnectionFromPoolTimeout:
                return FetchError(.timeout, url: url, message: "Fetching '\(url)' timed out (\(error)).")
            default:
                break
            }
        }
        if error is CancellationError {
            return FetchError(.timeout, url: url, message: "Fetching '\(url)' was cancelled before it finished.")
        }
        return .transport(url, error)
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
