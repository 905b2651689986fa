/// One piece of a template as other tools read it (the association contract writes AASA patterns from them).
public enum DeeplinkPiece: Sendable, Equatable {
    /// Text matched as written (it may hold the `?` and `#` that start the query and the fragment).
    case literal(String)
    /// An argument: its property's name, and whether it takes the rest of the link (`rest:`) or one segment.
    case argument(name: String, takesRest: Bool)
}

extension Deeplink {
    /// The template's pieces in order.
    public var pieces: [DeeplinkPiece] {
        components.map { component in
            switch component {
            case .literal(let text): .literal(text)
            case .argument(let slot): .argument(name: slot.name, takesRest: slot.extent == .rest)
            }
        }
    }
}
