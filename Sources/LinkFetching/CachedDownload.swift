import Foundation

/// What ``CachedDownloader/load(url:validate:)`` returns: the data and where it came from.
public struct CachedDownload: Sendable, Equatable {
    /// Where the data came from.
    public enum Source: String, Sendable, Hashable, Codable {
        /// A full download (200), validated and stored.
        case network
        /// The server answered 304 to a conditional request; the stored copy was confirmed and its date refreshed.
        case notModified
        /// The stored copy was fresh, so no request was made.
        case cache
        /// The download failed or was rejected by validation; the last good copy was returned (see `warning`).
        case staleFallback
    }

    /// The body.
    public var data: Data
    /// Where it came from.
    public var source: Source
    /// When the data was last confirmed by the server.
    public var fetchedAt: Date
    /// Why a stale copy was returned, one sentence; nil otherwise.
    public var warning: String?
}
