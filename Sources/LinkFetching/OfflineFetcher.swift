import WebLinks

/// A fetcher that refuses every request: for runs that must not use the network at all.
public struct OfflineFetcher: LinkFetching {
    /// Creates the fetcher.
    public init() {}

    /// Always throws `.offline`.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        throw FetchError(
            .offline,
            url: request.url.text,
            message: "Fetching '\(request.url)' is not allowed: the network is off."
        )
    }
}
