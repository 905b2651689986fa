import Foundation
import LinkRules

/// What to list for a link.
public struct ResolveOptions: Sendable, Equatable {
    /// The installed apps' schemes; when set, only openings in those apps are listed (as Opener does).
    public var installedSchemes: Set<String>?
    /// The device family; apps limited to the other one are dropped.
    public var platform: Platform?
    /// Response headers of the link, for actions with `headers` (name/value pairs in server order).
    public var headers: [(name: String, value: String)]?
    /// Whether browsers are listed.
    public var includeBrowsers: Bool
    /// Whether previews are listed.
    public var includePreviews: Bool
    /// Time limits for regex evaluation.
    public var budget: MatchBudget

    /// Creates options.
    public init(
        installedSchemes: Set<String>? = nil, platform: Platform? = nil,
        headers: [(name: String, value: String)]? = nil, includeBrowsers: Bool = true, includePreviews: Bool = true,
        budget: MatchBudget = MatchBudget()
    ) {
        self.budget = budget
        self.installedSchemes = installedSchemes
        self.platform = platform
        self.headers = headers
        self.includeBrowsers = includeBrowsers
        self.includePreviews = includePreviews
    }

    public static func == (lhs: ResolveOptions, rhs: ResolveOptions) -> Bool {
        lhs.installedSchemes == rhs.installedSchemes && lhs.platform == rhs.platform
            && lhs.includeBrowsers == rhs.includeBrowsers && lhs.includePreviews == rhs.includePreviews
            && lhs.budget == rhs.budget
            && lhs.headers?.map(\.name) == rhs.headers?.map(\.name) && lhs.headers?.map(\.value) == rhs.headers?.map(\.value)
    }

    package func allows(_ app: App) -> Bool {
        allows(scheme: app.scheme.lowercased(), platform: app.platform)
    }

    /// The hot-path check, on fields the compiled rules precompute (no copy of the whole app).
    @inline(__always)
    package func allows(scheme: String, platform appPlatform: Platform?) -> Bool {
        if let installedSchemes, !installedSchemes.contains(scheme) { return false }
        if let platform, let appPlatform, appPlatform != platform { return false }
        return true
    }
}

/// Time limits for regex evaluation: a pathological rule is skipped for that input (and reported), never a hang.
public struct MatchBudget: Sendable, Equatable {
    /// The most one regex may run on one input.
    public var perRegex: Duration
    /// The most all regexes together may run for one resolution.
    public var perResolution: Duration

    /// Creates a budget (defaults: 50 ms per regex, 250 ms per resolution).
    public init(perRegex: Duration = .milliseconds(50), perResolution: Duration = .milliseconds(250)) {
        self.perRegex = perRegex
        self.perResolution = perResolution
    }
}

extension RuleSet {
    /// Resolves a link synchronously: redirect rules, then every matching action × format in manifest order, every
    /// matching browser, every preview. Templates are rendered; script outputs are listed with `needsScript`.
    public func resolve(_ link: String, options: ResolveOptions = ResolveOptions()) -> Resolution {
        // One deadline for the whole resolution: redirect rules and actions share the budget.
        let deadline = ContinuousClock().now + options.budget.perResolution
        let (unwrapped, steps, redirectsTimedOut) = unwrap(link, budget: options.budget, deadline: deadline)
        let (openings, timedOut) = compiledOpenings(for: unwrapped, options: options, deadline: deadline)
        return Resolution(
            input: link, unwrapped: unwrapped, steps: steps, openings: openings, timedOutRules: redirectsTimedOut + timedOut)
    }

    /// The openings for an already unwrapped link, through the compiled matcher.
    public func openings(for link: String, options: ResolveOptions = ResolveOptions()) -> [Opening] {
        compiledOpenings(for: link, options: options).openings
    }

    /// The compiled path: the literal prefilter picks candidate actions and previews, each regex runs once under
    /// the budget and its matches serve every format; trivial browser patterns are matched without ICU.
    package func compiledOpenings(
        for link: String, options: ResolveOptions, deadline: ContinuousClock.Instant? = nil
    ) -> (openings: [Opening], timedOut: [String]) {
        let clock = ContinuousClock()
        let resolutionDeadline = deadline ?? clock.now + options.budget.perResolution
        var timedOut: [String] = []
        func run(_ regex: CompiledRegex, on input: String, rule: JSONPointer) -> [NSTextCheckingResult] {
            let deadline = min(clock.now + options.budget.perRegex, resolutionDeadline)
            switch regex.matches(in: input, deadline: deadline) {
            case .matches(let matches): return matches
            case .timedOut, .failed:
                timedOut.append(rule.description)
                return []
            }
        }
        var result: [Opening] = []
        result.reserveCapacity(8 + (options.includeBrowsers ? browsers.count : 0))
        let headerInput = options.headers.map { link + "\n" + Self.compactJSON($0) }
        // One pass over the link's bytes gives what every later step needs.
        let linkBytes = LinkBytes(link)
        // ASCII links (nearly all) are rendered from ICU's match ranges without ICU's template engine.
        let asciiLink: [UInt8]? = linkBytes.isASCII ? linkBytes.bytes : nil
        var actionCandidates = actionFilter.candidateIndexes(for: linkBytes)
        if headerInput != nil, !headerActions.isEmpty {
            actionCandidates = Array(Set(actionCandidates).union(headerActions)).sorted()
        }
        #if canImport(CICU)
        // The link as UTF-16 for ICU, made once when the first candidate needs it; match offsets in one reused buffer.
        var utf16Link: [UInt16] = []
        var utf16Ready = false
        var offsets: [Int] = []
        #endif
        let filtersApps = options.installedSchemes != nil || options.platform != nil
        for index in actionCandidates {
            let compiled = actions[index]
            // Without an app filter every format is allowed: the formats (cold objects) are not touched before the
            // regex says the action matches.
            if filtersApps ? !compiled.formats.contains(where: { options.allows(scheme: $0.scheme, platform: $0.platform) }) : !compiled.hasFormats {
                continue
            }
            let input = compiled.action.headers ? (headerInput ?? link) : link
            #if canImport(CICU)
            if let direct = compiled.regex.direct, compiled.rendersFromOffsets, let asciiLink, !(compiled.action.headers && headerInput != nil) {
                if !utf16Ready {
                    utf16Link = asciiLink.map(UInt16.init)
                    utf16Ready = true
                }
                offsets.removeAll(keepingCapacity: true)
                let deadline = min(clock.now + options.budget.perRegex, resolutionDeadline)
                switch utf16Link.withUnsafeBufferPointer({ direct.matches(in: $0, deadline: deadline, into: &offsets) }) {
                case .timedOut, .failed:
                    timedOut.append(compiled.action.pointer.description)
                case .matches(0):
                    break
                case .matches(let count):
                    for format in compiled.formats where options.allows(scheme: format.scheme, platform: format.platform) {
                        appendOpening(format.output, to: &result, kind: .action, app: format.appInfo, title: compiled.action.title, rule: format.rule) { _ in
                            format.templateParts?.render(offsets: offsets, matchCount: count, inASCII: asciiLink) ?? ""
                        }
                    }
                }
                continue
            }
            #endif
            let matches = run(compiled.regex, on: input, rule: compiled.action.pointer)
            guard !matches.isEmpty else { continue }
            for format in compiled.formats where options.allows(scheme: format.scheme, platform: format.platform) {
                appendOpening(format.output, to: &result, kind: .action, app: format.appInfo, title: compiled.action.title, rule: format.rule) { template in
                    if let parts = format.templateParts, let asciiBytes = input == link ? asciiLink : nil {
                        return parts.render(matches, inASCII: asciiBytes)
                    }
                    return compiled.regex.render(template, matches: matches, in: input)
                }
            }
        }
        if options.includeBrowsers {
            let trivialSafe = !linkBytes.hasLineTerminator
            let bytes = linkBytes.bytes
            let linkIsClean = !linkBytes.hasControl
            // Many browsers share a pattern: match each distinct trivial pattern once per link (start -2: not yet).
            var trivialMatches = [TrivialPattern.Match](repeating: TrivialPattern.Match(start: -2), count: trivialPatterns.count)
            browserPlans.withUnsafeBufferPointer { plans in
                for index in plans.indices {
                    if filtersApps, !options.allows(scheme: browsers[index].scheme, platform: browsers[index].platform) { continue }
                    let patternIndex = plans[index].trivialIndex
                    if trivialSafe, patternIndex >= 0 {
                        if trivialMatches[patternIndex].start == -2 {
                            trivialMatches[patternIndex] = trivialPatterns[patternIndex].firstMatch(in: bytes) ?? TrivialPattern.Match(start: -1)
                        }
                        let match = trivialMatches[patternIndex]
                        guard match.start >= 0 else { continue }
                        if plans[index].needsScript {
                            result.append(Opening(kind: .browser, app: plans[index].app, title: plans[index].title, rule: plans[index].rule, url: nil, needsScript: true))
                            continue
                        }
                        if let url = plans[index].parts?.render(match, in: bytes) {
                            // The output is the link's own text and the template's: when both are clean, only a
                            // forbidden leading scheme could be wrong, and an output that starts with the template's
                            // own safe scheme (`dolphin://$1` matched from the first byte) cannot have one.
                            let clean = linkIsClean && plans[index].templateIsPlain
                                && (match.start == 0 && plans[index].templateFixesSafeScheme || !OutputSafety.mayStartWithForbiddenScheme(url))
                            let problem = clean ? nil : OutputSafety.problem(with: url)
                            result.append(Opening(kind: .browser, app: plans[index].app, title: plans[index].title, rule: plans[index].rule, url: problem == nil ? url : nil, needsScript: false, scriptError: problem))
                            continue
                        }
                    }
                    let compiled = browsers[index]
                    let matches = run(compiled.regex, on: link, rule: compiled.browser.pointer)
                    guard !matches.isEmpty else { continue }
                    appendOpening(compiled.output, to: &result, kind: .browser, app: compiled.appInfo, title: compiled.appInfo.name, rule: compiled.rule) { compiled.regex.render($0, matches: matches, in: link) }
                }
            }
        }
        if options.includePreviews {
            for index in previewFilter.candidateIndexes(for: linkBytes) {
                let compiled = previews[index]
                let matches = run(compiled.regex, on: link, rule: compiled.preview.pointer)
                guard !matches.isEmpty else { continue }
                appendOpening(compiled.output, to: &result, kind: .preview, app: nil, title: "Preview", rule: compiled.rule) { compiled.regex.render($0, matches: matches, in: link) }
            }
        }
        return (result, timedOut)
    }

    /// An opening for one output: a template is rendered (and refused when unsafe), a script is left to run.
    /// (Appended here rather than returned: returning it made the optimiser copy every opening once more.)
    package func appendOpening(
        _ output: Output, to result: inout [Opening], kind: Opening.Kind, app: OpeningApp?, title: String, rule: String,
        render: (String) -> String
    ) {
        switch output {
        case .template(let template):
            let url = render(template)
            let problem = OutputSafety.problem(with: url)
            result.append(Opening(kind: kind, app: app, title: title, rule: rule, url: problem == nil ? url : nil, needsScript: false, scriptError: problem))
        case .script:
            result.append(Opening(kind: kind, app: app, title: title, rule: rule, url: nil, needsScript: true))
        }
    }

    /// Compact JSON of response headers, keys in the given order (what `headers` actions match against).
    package static func compactJSON(_ headers: [(name: String, value: String)]) -> String {
        var json = "{"
        for (index, header) in headers.enumerated() {
            if index > 0 { json.append(",") }
            JSONWriter.appendQuoted(header.name, to: &json)
            json.append(":")
            JSONWriter.appendQuoted(header.value, to: &json)
        }
        return json + "}"
    }
}
