/// What an HTTP cache did for one response (``FetchResponse/cacheStatus``).
public enum CacheStatus: String, Sendable, Hashable, Codable, CaseIterable {
    /// Nothing usable was stored: the request went to the server (the answer may have been stored for next time).
    case miss
    /// A fresh stored response answered; no request was sent.
    case hit
    /// A stored response was confirmed by the server (`304 Not Modified`) and answered, its headers refreshed.
    case revalidated
    /// The server could not be asked or failed (an error, a time-out, a `5xx`, a back-off), and the last good
    /// stored response answered although it is stale (stale-if-error): it must not be reused.
    case stale
}
