/// What an answer is made from, as text: the rules' identity, the resolver's own configuration (scripts, network),
/// each stage's identity and the request's canonical encoding, and the input. Two resolutions with equal keys give
/// equal documents for as long as their ``Cacheability`` allows, so a cache may answer one with the other.
///
/// The key is derived, never listed by hand: a request field reaches it through `ResolveRequest`'s encoding, and a
/// stage's state through its ``ResolutionStage/identity``. The HTTP API's entity tags are a hash of these parts.
public struct CacheKey: Sendable, Hashable, CustomStringConvertible {
    /// The parts, in a fixed order: `rules:…`, `resolver:…`, one `stage:…` per stage in the order they run,
    /// `request:…` (canonical JSON), `input:…`; for what one stage answers alone (`/v1/claims`), `rules:…`,
    /// `resolver:…`, `lookup:…` (the stage's identity), `input:…`.
    public var parts: [String]

    /// Creates a key from its parts.
    public init(parts: [String]) {
        self.parts = parts
    }

    /// The parts, one per line.
    public var description: String { parts.joined(separator: "\n") }
}
