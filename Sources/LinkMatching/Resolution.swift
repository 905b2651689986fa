import LinkRules

/// Everything Switchyard found for one input link: the one document every front end prints (`resolve --json`,
/// `explain --json`, each batch line, the HTTP API).
///
/// `{"input", "unwrapped", "steps", "openings", "timedOutRules"}`, plus `"trace"` when one was asked for (what
/// `explain` shows) and `"notices"` when there is something to report (written only when not empty).
public struct Resolution: Sendable, Equatable, Codable {
    /// The input as given.
    public var input: String
    /// The link after redirect rules (and HTTP redirects, when followed).
    public var unwrapped: String
    /// Each unwrapping step, in order.
    public var steps: [UnwrapStep]
    /// Every opening: actions × formats in manifest order, then browsers, then previews.
    public var openings: [Opening]
    /// Rules skipped for this input because their regex ran out of time.
    public var timedOutRules: [JSONPointer]
    /// Why each rule did or did not open the link, when a trace was asked for.
    public var trace: ResolutionTrace?
    /// What a front end should report about the resolution as a whole (a remembered app that is unavailable); empty
    /// for most resolutions, and then not encoded.
    public var notices: [ResolutionNotice]

    /// Creates a resolution.
    public init(
        input: String,
        unwrapped: String,
        steps: [UnwrapStep] = [],
        openings: [Opening] = [],
        timedOutRules: [JSONPointer] = [],
        trace: ResolutionTrace? = nil,
        notices: [ResolutionNotice] = []
    ) {
        self.input = input
        self.unwrapped = unwrapped
        self.steps = steps
        self.openings = openings
        self.timedOutRules = timedOutRules
        self.trace = trace
        self.notices = notices
    }

    private enum CodingKeys: String, CodingKey {
        case input, unwrapped, steps, openings, timedOutRules, trace, notices
    }

    /// Decodes a resolution document; `notices` may be absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        input = try container.decode(String.self, forKey: .input)
        unwrapped = try container.decode(String.self, forKey: .unwrapped)
        steps = try container.decode([UnwrapStep].self, forKey: .steps)
        openings = try container.decode([Opening].self, forKey: .openings)
        timedOutRules = try container.decode([JSONPointer].self, forKey: .timedOutRules)
        trace = try container.decodeIfPresent(ResolutionTrace.self, forKey: .trace)
        notices = try container.decodeIfPresent([ResolutionNotice].self, forKey: .notices) ?? []
    }
}

/// One step that changed the link before matching, or tried to and was refused (``refused`` says why).
public struct UnwrapStep: Sendable, Equatable, Codable {
    /// What made the step.
    public enum Kind: String, Sendable, Codable {
        /// A static redirect rule of the manifest.
        case redirectRule = "redirect-rule"
        /// An HTTP redirect, followed with HEAD.
        case httpRedirect = "http-redirect"
        /// A page's `Refresh` header to another link within the delay allowed, followed as a redirect.
        case refreshHeader = "refresh-header"
        /// A page's first `<meta http-equiv="refresh">` to another link within the delay allowed (the page read with a
        /// GET of its start: a bounce host's, or when the request asks), followed as a redirect.
        case metaRefresh = "meta-refresh"
        /// Tracking removed and redirect wrappers unwrapped by a cleaning catalog (ClearURLs' rules, LinkCleaning).
        case clean
        /// A link wrapper of a mail gateway or a redirect page decoded offline (LinkWrappers' catalog, or the user
        /// layer's `wrappers`); the rule is the wrapper's name.
        case wrapper
    }

    /// What made the step: a static redirect rule, an HTTP redirect, a cleaning catalog or a link wrapper.
    public var kind: Kind
    /// The redirect rule's pattern, the HTTP method and status (`HEAD 301`; a refresh adds its delay: `GET 200, 0 s`),
    /// the cleaning catalog's name, or the link wrapper's name.
    public var rule: String
    /// Where the redirect rule, or the user layer's link wrapper, is defined (nil for HTTP redirects and built-in
    /// wrappers).
    public var location: JSONPointer?
    /// The link before the step.
    public var from: String
    /// The link after the step (nil when the step was refused).
    public var to: String?
    /// Why the step did not apply, when it did not (a redirect rule's value that is not valid UTF-8 or not a web
    /// link; an HTTP hop that failed or looped): the link stayed as it was.
    public var refused: String?
    /// The layer of the redirect rule, when it is the user's own (nil: the manifest's, or an HTTP redirect).
    public var layer: RuleLayer? = nil
    /// For a cleaning step: each thing removed or unwrapped and the rule that did it, one line each.
    public var details: [String]? = nil

    /// Creates a step.
    public init(
        kind: Kind,
        rule: String,
        location: JSONPointer? = nil,
        from: String,
        to: String?,
        refused: String? = nil,
        layer: RuleLayer? = nil
    ) {
        self.layer = layer
        self.kind = kind
        self.rule = rule
        self.location = location
        self.from = from
        self.to = to
        self.refused = refused
    }
}

extension UnwrapStep: CustomStringConvertible {
    /// One line for people: `http-redirect HEAD 301: FROM → TO`, or `…: FROM stays (WHY)` for a refused step. The
    /// CLI's table and `explain` print it.
    public var description: String {
        let layer = self.layer == .user ? " (user layer)" : ""
        let what = "\(kind.rawValue)\(layer) \(location.map { "\($0) " } ?? "")\(rule)"
        let details = (self.details ?? []).map { "\n    " + $0 }.joined()
        guard let to else { return "\(what): \(from) stays (\(refused ?? "refused"))\(details)" }
        return "\(what): \(from) → \(to)\(details)"
    }
}

extension Resolution {
    /// Marks every opening of the app `identifier` as preferred (the first preference given wins); returns whether
    /// the resolution has such an opening.
    @discardableResult
    public mutating func prefer(app identifier: String, _ preference: OpeningPreference) -> Bool {
        var found = false
        for index in openings.indices where openings[index].app?.identifier == identifier {
            found = true
            if openings[index].preferred == nil { openings[index].preferred = preference }
        }
        return found
    }
}
