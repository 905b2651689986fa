import WebLinks

/// What decoding a link's wrappers gave: the innermost link, each step, and why decoding stopped at a wrapper it did
/// not decode.
public struct WrapperUnwrapping: Sendable, Equatable {
    /// The link after the last wrapper decoded (the link itself when none was).
    public var link: Link
    /// Each wrapper decoded, outermost first.
    public var steps: [WrapperStep]
    /// The wrapper decoding stopped at (opaque, malformed, or one too deep), when it did.
    public var stop: WrapperStop?

    /// Creates an outcome.
    public init(link: Link, steps: [WrapperStep] = [], stop: WrapperStop? = nil) {
        self.link = link
        self.steps = steps
        self.stop = stop
    }

    /// The original wrapped link, when a wrapper was decoded: what a browser opens when the user asks for the wrapped
    /// link, so that the gateway's click-time check still runs.
    public var wrapped: Link? { steps.first?.from }
}

/// One wrapper decoded.
public struct WrapperStep: Sendable, Equatable {
    /// The catalog entry.
    public var wrapper: LinkWrapper
    /// The wrapper link.
    public var from: Link
    /// The link it carries.
    public var to: Link

    /// Creates a step.
    public init(wrapper: LinkWrapper, from: Link, to: Link) {
        self.wrapper = wrapper
        self.from = from
        self.to = to
    }
}

/// A wrapper link that is left as it is, and why.
public struct WrapperStop: Sendable, Equatable, CustomStringConvertible {
    /// Why the wrapper was not decoded.
    public enum Reason: Sendable, Equatable {
        /// Only the gateway's service knows the link (Mimecast): online, it is followed as a short link.
        case opaque
        /// It holds something that cannot be decoded, or that is not a web link.
        case malformed(String)
        /// It is inside this many wrappers already decoded: the depth limit.
        case tooDeep(Int)
    }

    /// The catalog entry.
    public var wrapper: LinkWrapper
    /// The wrapper link, left as it is.
    public var link: Link
    /// Why.
    public var reason: Reason

    /// Creates a stop.
    public init(wrapper: LinkWrapper, link: Link, reason: Reason) {
        self.wrapper = wrapper
        self.link = link
        self.reason = reason
    }

    /// One sentence naming the wrapper: `the link is a Proofpoint URL Defense v3 link, but its data … is not
    /// base64url; it is left as it is`.
    public var description: String {
        switch reason {
        case .opaque where wrapper.decoding == .page:
            "the link is a \(wrapper.name) link, whose page says where it leads: it is resolved as it is (online, its page is read and followed)"
        case .opaque:
            "the link is a \(wrapper.name) link, which only its service can decode: it is resolved as it is (online, it is followed like a short link)"
        case .malformed(let why):
            "the link is a \(wrapper.name) link, but \(why); it is resolved as it is"
        case .tooDeep(let depth):
            "the link is still a \(wrapper.name) link after \(depth) wrappers decoded, the most decoded for one link; it is resolved as it is"
        }
    }
}

extension LinkWrapperCatalog {
    /// The most wrappers decoded inside one another for one link (forwarded mail has two or three).
    public static let maximumDepth = 8

    /// Decodes `link` while it is a wrapper link, at most `maximumDepth` times; each decoded link goes through the link
    /// parser (refused as any link is, and at most `maximumLength` bytes). A wrapper that is opaque, malformed or one
    /// too deep stops the decoding: the link stays the last one decoded, and ``WrapperUnwrapping/stop`` says why. A
    /// wrapper link without what its entry decodes (no such parameter) is no wrapped link, and stays as it is.
    public func unwrap(
        _ link: Link,
        maximumDepth: Int = LinkWrapperCatalog.maximumDepth,
        maximumLength: Int = Link.maximumLength
    ) -> WrapperUnwrapping {
        var outcome = WrapperUnwrapping(link: link)
        while let wrapper = wrapper(for: outcome.link) {
            guard outcome.steps.count < maximumDepth else {
                outcome.stop = WrapperStop(wrapper: wrapper, link: outcome.link, reason: .tooDeep(outcome.steps.count))
                break
            }
            switch wrapper.decode(outcome.link, maximumLength: maximumLength) {
            case .decoded(let inner):
                outcome.steps.append(WrapperStep(wrapper: wrapper, from: outcome.link, to: inner))
                outcome.link = inner
                continue
            case .absent:
                break
            case .opaque:
                outcome.stop = WrapperStop(wrapper: wrapper, link: outcome.link, reason: .opaque)
            case .malformed(let why):
                outcome.stop = WrapperStop(wrapper: wrapper, link: outcome.link, reason: .malformed(why))
            }
            break
        }
        return outcome
    }
}
