/// How long an answer, or one stage's contribution to it, may be kept and given again for the same ``CacheKey``.
///
/// Each stage says it for what it contributed; the resolver combines them with the scripts' and the network's
/// (``combined(with:)``: the shortest wins) into the answer's, and the server's `Cache-Control` is made from that
/// alone (`public, max-age=…` or `no-store`).
public enum Cacheability: Sendable, Hashable {
    /// As long as the cache key holds: the same rules, stage identities and request give the same answer.
    case unlimited
    /// For at most this long (the answer used something that stays true that long, such as a fresh response).
    case upTo(Duration)
    /// Never: the answer depends on the moment (something ran out of time, used an uncacheable response, or a stage
    /// could not read what it decides from). The reason is for logs and tests.
    case uncacheable(reason: String)

    /// The more restrictive of the two: `uncacheable` over any duration, the shorter duration over the longer, any
    /// duration over `unlimited`. The first reason given is kept.
    public func combined(with other: Cacheability) -> Cacheability {
        switch (self, other) {
        case (.uncacheable, _): self
        case (_, .uncacheable): other
        case (.unlimited, _): other
        case (_, .unlimited): self
        case (.upTo(let first), .upTo(let second)): .upTo(min(first, second))
        }
    }

    /// Whether the answer may be kept at all.
    public var allowsStoring: Bool {
        if case .uncacheable = self { return false }
        if case .upTo(let duration) = self { return duration > .zero }
        return true
    }

    /// The longest it may be kept for: nil when only the key limits it (`unlimited`), zero when it must not be kept.
    public var maximumAge: Duration? {
        switch self {
        case .unlimited: nil
        case .upTo(let duration): max(duration, .zero)
        case .uncacheable: .zero
        }
    }
}
