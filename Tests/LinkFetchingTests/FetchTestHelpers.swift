import LinkFetching

/// Runs `operation` and returns the ``FetchError`` it threw, or nil when it succeeded.
func fetchError<T>(_ operation: () async throws(FetchError) -> T) async -> FetchError? {
    do {
        _ = try await operation()
        return nil
    } catch {
        return error
    }
}

/// A loopback-friendly policy with a small body limit and short timeout, so limit tests stay fast.
func testPolicy(
    maxBodyBytes: Int = 1024 * 1024,
    timeout: Duration = .seconds(5),
    allowPrivate: Bool = true,
    resolver: HostResolver = .system
) -> NetworkPolicy {
    NetworkPolicy(
        allowPrivateAddresses: allowPrivate,
        maxBodyBytes: maxBodyBytes,
        timeout: timeout,
        resolver: resolver
    )
}
