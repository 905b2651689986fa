import Dispatch
import Synchronization
import WebLinks

extension LinkFetching {
    /// Performs `request` and blocks the calling thread until it finishes: for script worker threads only.
    ///
    /// JavaScriptCore calls `httpRequest` synchronously on a thread that owns the VM lock, so the script
    /// side needs a blocking call. The fetch runs in a separate `Task` and this thread waits on a semaphore.
    /// Never call it from the Swift concurrency cooperative pool (an `async` function or a `Task`): blocking a
    /// pool thread can starve the very task it waits for and deadlock on machines with few cores.
    public func fetchBlocking(_ request: FetchRequest) throws(FetchError) -> FetchResponse {
        let outcome = BlockingOutcome()
        let semaphore = DispatchSemaphore(value: 0)
        Task {
            let result: Result<FetchResponse, FetchError>
            do throws(FetchError) { result = .success(try await fetch(request)) } catch { result = .failure(error) }
            outcome.store(result)
            semaphore.signal()
        }
        semaphore.wait()
        return try outcome.take(url: request.url.text).get()
    }
}

/// The hand-over between the fetching task and the blocked thread.
private final class BlockingOutcome: Sendable {
    private let result = Mutex<Result<FetchResponse, FetchError>?>(nil)

    func store(_ value: Result<FetchResponse, FetchError>) {
        result.withLock { $0 = value }
    }

    func take(url: String) -> Result<FetchResponse, FetchError> {
        result.withLock { $0 }
            ?? .failure(FetchError(.transport, url: url, message: "Fetching '\(url)' ended without a result."))
    }
}
