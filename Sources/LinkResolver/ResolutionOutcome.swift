import LinkMatching

/// A resolution, and whether its answer depends on the rules and the request alone.
public struct ResolutionOutcome: Sendable, Equatable {
    /// The document.
    public var resolution: Resolution
    /// Whether resolving the same request with the same rules gives the same document again: no request went to the
    /// network (a short link's hop, a header lookup, a script's `httpRequest`, answered or failed), and nothing
    /// depended on the moment (a regex or a script stopped at its time limit, a script set aside, a deadline that
    /// ended the resolution before a stage could run). What an HTTP cache may keep; any other answer is made anew
    /// for each request.
    public var isReproducible: Bool

    /// Creates an outcome.
    public init(resolution: Resolution, isReproducible: Bool) {
        self.resolution = resolution
        self.isReproducible = isReproducible
    }
}
