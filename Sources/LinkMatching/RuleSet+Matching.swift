import Foundation
import HTTPTypes
import LinkRules
import WebLinks

extension RuleSet {
    /// Resolves a link synchronously and without network: link wrappers (``wrappers``), redirect rules, then every
    /// matching action × format in manifest order, every matching browser, every preview. Templates are rendered; script outputs are listed with
    /// `needsScript` (`LinkResolver` runs them). With `trace`, the resolution says why each rule did or did not
    /// open the link.
    ///
    /// The same two stages (the redirect rules of ``unwrap(_:budget:)`` and the compiled matcher of
    /// ``openings(for:options:)``) make every resolution, this one and `LinkResolver`'s, under one
    /// ``ResolutionBudget`` (here: the regex budget).
    public func resolve(_ link: Link, options: MatchOptions = MatchOptions(), trace: Bool = false) -> Resolution {
        var budget = ResolutionBudget(timeLimit: options.budget.perResolution, limits: options.budget)
        var recorded: ResolutionTrace? = trace ? ResolutionTrace() : nil
        // Wrappers first, and again on a redirect rule's target, as the resolver does (`unwrapAndMatch`).
        var decoded = decodeWrappers(link, maximumLength: Link.maximumLength, offline: true)
        var unwrapped = unwrap(decoded.link, sourceApp: options.sourceApp, budget: &budget, trace: &recorded)
        if unwrapped.link != decoded.link {
            let again = decodeWrappers(unwrapped.link, maximumLength: Link.maximumLength, offline: true)
            unwrapped.link = again.link
            unwrapped.steps += again.steps
            decoded.notices += again.notices
            decoded.wrapped = decoded.wrapped ?? again.wrapped
        }
        let browserLink = opensWrapped(options) ? decoded.wrapped : nil
        let matched = match(
            unwrapped.link,
            options: options,
            budget: &budget,
            trace: &recorded,
            browsersOpen: browserLink
        )
        let steps = decoded.steps + unwrapped.steps
        if let wrapped = decoded.wrapped, recorded != nil {
            recorded?.gateway = GatewayTrace(
                wrapped: wrapped,
                steps: steps,
                openings: matched.openings,
                browsersOpenWrapped: browserLink != nil
            )
        }
        return Resolution(
            input: link.text,
            unwrapped: unwrapped.link.text,
            steps: steps,
            openings: matched.openings,
            timedOutRules: unwrapped.timedOut + matched.timedOut,
            trace: recorded,
            notices: decoded.notices
        )
    }

    /// The openings for a link as it is (no redirect rules), through the compiled matcher.
    public func openings(for link: Link, options: MatchOptions = MatchOptions()) -> [Opening] {
        var budget = ResolutionBudget(timeLimit: options.budget.perResolution, limits: options.budget)
        var trace: ResolutionTrace?
        return match(link, options: options, budget: &budget, trace: &trace).openings
    }

    /// What one matching stage found.
    package struct Match: Sendable {
        /// The openings, in order.
        package var openings: [Opening]
        /// Rules whose regex ran out of time.
        package var timedOut: [JSONPointer]
        /// Whether the user layer removed an action opening (the link is decided: it is not unwrapped over HTTP).
        package var layerRemovedActions = false
    }

    /// The one function that builds openings: the literal prefilter picks candidate actions and previews, each
    /// regex runs once under the budget and its matches serve every format; trivial browser patterns are matched
    /// without ICU, on `browserLink` when one is given (the original wrapped link, when the user asks browsers to open
    /// it). With a trace, each action's verdict is recorded (every action, candidates or not).
    package func match(
        _ link: Link,
        options: MatchOptions,
        budget: inout ResolutionBudget,
        trace: inout ResolutionTrace?,
        browsersOpen browserLink: Link? = nil
    ) -> Match {
        let stage = budget.startRegexStage()
        defer { budget.finish(stage) }
        let text = link.text
        var timedOut: [JSONPointer] = []
        func run(_ regex: CompiledRegex, on input: String, rule: JSONPointer) -> [NSTextCheckingResult]? {
            switch regex.matches(in: input, deadline: stage.deadlineOfRegex()) {
            case .matches(let matches): return matches
            case .timedOut, .failed:
                timedOut.append(rule)
                return nil
            }
        }
        var actionTraces: [Int: ActionTrace]? = trace == nil ? nil : [:]
        var result: [Opening] = []
        result.reserveCapacity(8 + (options.includeBrowsers ? browsers.count : 0))
        let headerInput = options.headers.map { text + "\n" + Self.compactJSON($0) }
        // One pass over the link's bytes gives what every later step needs.
        let linkBytes = LinkBytes(text)
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
        let filtersApps = options.filtersApps
        for index in actionCandidates {
            let compiled = actions[index]
            // Without an app filter every format is allowed: the formats (cold objects) are not touched before the
            // regex says the action matches.
            if filtersApps
                ? !compiled.formats.contains(where: { options.allows(scheme: $0.scheme, platform: $0.platform) })
                : !compiled.hasFormats
            {
                actionTraces?[index] = traceEntry(index, .noAllowedApp)
                continue
            }
            let input = compiled.action.headers ? (headerInput ?? text) : text
            let first = result.count
            #if canImport(CICU)
            if let direct = compiled.regex.direct, compiled.rendersFromOffsets, let asciiLink,
                !(compiled.action.headers && headerInput != nil)
            {
                if !utf16Ready {
                    utf16Link = asciiLink.map(UInt16.init)
                    utf16Ready = true
                }
                offsets.removeAll(keepingCapacity: true)
                let deadline = stage.deadlineOfRegex()
                switch utf16Link.withUnsafeBufferPointer({ direct.matches(in: $0, deadline: deadline, into: &offsets) })
                {
                case .timedOut, .failed:
                    timedOut.append(compiled.action.pointer)
                    actionTraces?[index] = traceEntry(index, .timedOut)
                case .matches(0):
                    actionTraces?[index] = traceEntry(index, .noMatch)
                case .matches(let count):
                    appendFormats(of: compiled, options: options, to: &result) { format, _ in
                        format.templateParts?.render(offsets: offsets, matchCount: count, inASCII: asciiLink) ?? ""
                    }
                    if actionTraces != nil {
                        actionTraces?[index] = traceEntry(
                            index,
                            .matched,
                            groups: TraceGroups(offsets: offsets, groupCount: direct.groupCount, in: text),
                            openings: result[first...].map(\.rule)
                        )
                    }
                }
                continue
            }
            #endif
            guard let matches = run(compiled.regex, on: input, rule: compiled.action.pointer) else {
                actionTraces?[index] = traceEntry(index, .timedOut)
                continue
            }
            guard let firstMatch = matches.first else {
                actionTraces?[index] = traceEntry(index, .noMatch)
                continue
            }
            appendFormats(of: compiled, options: options, to: &result) { format, template in
                if let parts = format.templateParts, let asciiBytes = input == text ? asciiLink : nil {
                    return parts.render(matches, inASCII: asciiBytes)
                }
                return compiled.regex.render(template, matches: matches, in: input)
            }
            if actionTraces != nil {
                actionTraces?[index] = traceEntry(
                    index,
                    .matched,
                    groups: TraceGroups(match: firstMatch, in: input),
                    openings: result[first...].map(\.rule)
                )
            }
        }
        if options.includeBrowsers {
            // Browsers open the wrapped link when the user asks (its gateway's check runs); every other opening is
            // for the inner one.
            let browserText = browserLink?.text ?? text
            matchBrowsers(browserLink.map { LinkBytes($0.text) } ?? linkBytes, options: options, into: &result) {
                compiled in
                run(compiled.regex, on: browserText, rule: compiled.rule)
            }
        }
        if options.includePreviews {
            for index in previewFilter.candidateIndexes(for: linkBytes) {
                let compiled = previews[index]
                guard let matches = run(compiled.regex, on: text, rule: compiled.rule), !matches.isEmpty else {
                    continue
                }
                appendOpening(
                    compiled.output,
                    to: &result,
                    kind: .preview,
                    app: nil,
                    title: "Preview",
                    rule: compiled.rule,
                    script: compiled.script,
                    canSave: compiled.preview.canSave
                ) { compiled.regex.render($0, matches: matches, in: text) }
            }
        }
        if let actionTraces {
            trace?.actions = actions.indices.map { actionTraces[$0] ?? traceEntry($0, .notCandidate) }
        }
        var removedActions = false
        if let userLayer {
            removedActions = userLayer.apply(to: &result, host: link.host, sourceApp: options.sourceApp, trace: &trace)
        }
        return Match(openings: result, timedOut: timedOut, layerRemovedActions: removedActions)
    }

    /// The trace entry of the action at `index`.
    private func traceEntry(
        _ index: Int,
        _ verdict: ActionTrace.Verdict,
        groups: TraceGroups? = nil,
        openings: [JSONPointer] = []
    ) -> ActionTrace {
        let action = actions[index].action
        var entry = ActionTrace(
            rule: action.pointer,
            title: action.title,
            regex: action.regex,
            requiredLiterals: RequiredLiterals.of(action.regex),
            verdict: verdict,
            matchRange: groups?.range,
            groups: groups?.texts,
            openings: openings
        )
        entry.layer = actions[index].layer
        return entry
    }
}
