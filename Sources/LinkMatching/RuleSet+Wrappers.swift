import LinkRules
import LinkWrappers

extension RuleSet {
    /// What decoding a link's wrappers gave a resolution: the link to go on with, its `wrapper` steps, the notices of
    /// a wrapper left as it is, and the original wrapped link.
    package struct DecodedWrappers: Sendable {
        /// The innermost link decoded (the link itself when it is no wrapper's).
        package var link: Link
        /// One `wrapper` step per wrapper decoded, outermost first, and a refused one for a malformed wrapper.
        package var steps: [UnwrapStep] = []
        /// A malformed wrapper, one too deep, or (offline) an opaque one: named, with what happens to the link.
        package var notices: [ResolutionNotice] = []
        /// The original wrapped link, when a wrapper was decoded.
        package var wrapped: Link?
    }

    /// The notice of a wrapper link that cannot be decoded (bad base64, a Proofpoint marker with no byte left, a
    /// value that is not a web link): the link is resolved as it is.
    public static let malformedWrapper = "E_WRAPPER_MALFORMED"
    /// The notice of an opaque wrapper (Mimecast's) when there is no network to follow it as a short link.
    public static let opaqueWrapper = "E_WRAPPER_OPAQUE"
    /// The notice of a link still wrapped after the most wrappers decoded for one link.
    public static let wrapperTooDeep = "E_WRAPPER_TOO_DEEP"

    /// Decodes the link wrappers around `link` with ``wrappers`` (each decoded link at most `maximumLength` bytes,
    /// through the link parser). A wrapper that is malformed gets a refused step and a notice; one too deep a notice;
    /// an opaque one a notice when `offline` (online, the resolver follows it as a short link).
    package func decodeWrappers(_ link: Link, maximumLength: Int, offline: Bool) -> DecodedWrappers {
        let unwrapping = wrappers.unwrap(link, maximumLength: maximumLength)
        var decoded = DecodedWrappers(link: unwrapping.link, wrapped: unwrapping.wrapped)
        guard !unwrapping.steps.isEmpty || unwrapping.stop != nil else { return decoded }
        for step in unwrapping.steps {
            decoded.steps.append(wrapperStep(step.wrapper, from: step.from, to: step.to))
        }
        if let stop = unwrapping.stop {
            switch stop.reason {
            case .malformed(let why):
                var step = wrapperStep(stop.wrapper, from: stop.link, to: nil)
                step.refused = why
                decoded.steps.append(step)
                decoded.notices.append(ResolutionNotice(code: Self.malformedWrapper, message: stop.description))
            case .tooDeep:
                decoded.notices.append(ResolutionNotice(code: Self.wrapperTooDeep, message: stop.description))
            case .opaque:
                if offline {
                    decoded.notices.append(ResolutionNotice(code: Self.opaqueWrapper, message: stop.description))
                }
            }
        }
        return decoded
    }

    /// The step of one wrapper: named by its entry; located, and of the user layer, when it is the layer's own.
    private func wrapperStep(_ wrapper: LinkWrapper, from: Link, to: Link?) -> UnwrapStep {
        let isUsers = userLayer?.userWrapperIDs.contains(wrapper.id) == true
        return UnwrapStep(
            kind: .wrapper,
            rule: wrapper.name,
            location: isUsers ? wrapper.pointer : nil,
            from: from.text,
            to: to?.text,
            layer: isUsers ? .user : nil
        )
    }

    /// Whether browser openings of a wrapped link open the wrapped link: the request's `opensWrapped`, else the user
    /// layer's `openWrapped`, else not (the inner link).
    package func opensWrapped(_ options: MatchOptions) -> Bool {
        options.opensWrapped ?? userLayer?.layer.opensWrapped ?? false
    }
}

/// What the gateways of a wrapped link were for its openings (`explain`): the wrappers decoded, which link browsers
/// open, and the app openings that open the inner link directly, bypassing them.
public struct GatewayTrace: Sendable, Equatable, Codable {
    /// The original wrapped link.
    public var wrapped: String
    /// The wrappers decoded, outermost first, by their names.
    public var wrappers: [String]
    /// Whether browser openings open the wrapped link (`openWrapped`), so that the gateway's check runs; otherwise
    /// they open the inner link.
    public var browsersOpenWrapped: Bool
    /// The app openings (actions, universal links, app links) that open the inner link: the gateway is bypassed for
    /// them. Each as `KIND APP RULE`.
    public var bypassed: [String]

    /// Creates a trace.
    public init(wrapped: String, wrappers: [String], browsersOpenWrapped: Bool, bypassed: [String]) {
        self.wrapped = wrapped
        self.wrappers = wrappers
        self.browsersOpenWrapped = browsersOpenWrapped
        self.bypassed = bypassed
    }

    /// The trace of `openings` of a link whose `steps` decoded the wrapped link `wrapped`.
    public init(wrapped: Link, steps: [UnwrapStep], openings: [Opening], browsersOpenWrapped: Bool) {
        self.init(
            wrapped: wrapped.text,
            wrappers: steps.filter { $0.kind == .wrapper && $0.to != nil }.map(\.rule),
            browsersOpenWrapped: browsersOpenWrapped,
            bypassed: openings.filter { $0.kind != .browser && $0.kind != .preview }.map {
                "\($0.kind.rawValue) \($0.app?.identifier ?? "-") \($0.rule)"
            }
        )
    }
}
