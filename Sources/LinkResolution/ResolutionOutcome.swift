import LinkMatching

/// A resolution, what it was made from (``cacheKey``) and how long it may be kept (``cacheability``).
public struct ResolutionOutcome: Sendable, Equatable {
    /// The document.
    public var resolution: Resolution
    /// What the answer is made from: the rules, the resolver, each stage's identity, the request and the input.
    public var cacheKey: CacheKey
    /// How long the answer may be given again for the same key: `unlimited` when it depends on the key alone;
    /// `uncacheable` when a request went to the network (a short link's hop, a header lookup, a script's
    /// `httpRequest`, answered or failed), something depended on the moment (a regex or a script stopped at its time
    /// limit, a script set aside, a deadline that ended the resolution before a stage could run) or a stage could not
    /// read what it decides from.
    public var cacheability: Cacheability

    /// Creates an outcome.
    public init(resolution: Resolution, cacheKey: CacheKey, cacheability: Cacheability) {
        self.resolution = resolution
        self.cacheKey = cacheKey
        self.cacheability = cacheability
    }

    /// Whether resolving the same request with the same rules and stages gives the same document again (the answer
    /// may be kept at all).
    public var isReproducible: Bool { cacheability.allowsStoring }
}
