import Foundation
import HTTPTypes
import LinkRules
import WebLinks

extension RuleSet {
    /// Resolves a link synchronously and without network: redirect rules, then every matching action × format in
    /// manifest order, every matching browser, every preview. Templates are rendered; script outputs are listed with
    /// `needsScript` (`LinkResolver` runs them). With `trace`, the resolution says why each rule did or did not
    /// open the link.
    ///
    /// The same two stages (the redirect rules of ``unwrap(_:budget:)`` and the compiled matcher of
    /// ``openings(for:options:)``) make every resolution, this one and `LinkResolver`'s, under one
    /// ``ResolutionBudget`` (here: the regex budget).
    public func resolve(_ link: Link, options: MatchOptions = MatchOptions(), trace: Bool = false) -> Resolution {
        var budget = ResolutionBudget(timeLimit: options.budget.perResolution, limits: options.budget)
        var recorded: ResolutionTrace? = trace ? ResolutionTrace() : nil
        let unwrapped = unwrap(link, sourceApp: options.sourceApp, budget: &budget, trace: &recorded)
        let matched = match(unwrapped.link, options: options, budget: &budget, trace: &recorded)
        return Resolution(
            input: link.text,
            unwrapped: unwrapped.link.text,
            steps: unwrapped.steps,
            openings: matched.openings,
            timedOutRules: unwrapped.timedOut + matched.timedOut,
            trace: recorded
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
    /// without ICU. With a trace, each action's verdict is recorded (every action, candidates or not).
    package func match(
        _ link: Link,
        options: MatchOptions,
        budget: inout ResolutionBudget,
        trace: inout ResolutionTrace?
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
            matchBrowsers(linkBytes, options: options, into: &result) { compiled in
                run(compiled.regex, on: text, rule: compiled.rule)
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

    /// Every browser that opens the link: trivial patterns (`.+`, `(https?.*)`, …) matched once each without a regex
    /// engine and rendered straight from the link's bytes; the others through `regex` (nil: it ran out of time).
    private func matchBrowsers(
        _ linkBytes: LinkBytes,
        options: MatchOptions,
        into result: inout [Opening],
        regex: (CompiledBrowser) -> [NSTextCheckingResult]?
    ) {
        let text = linkBytes.text
        let filtersApps = options.filtersApps
        let trivialSafe = !linkBytes.hasLineTerminator
        let bytes = linkBytes.bytes
        let linkIsClean = !linkBytes.hasControl
        // Many browsers share a pattern: match each distinct trivial pattern once per link (start -2: not yet).
        var trivialMatches = [TrivialPattern.Match](
            repeating: TrivialPattern.Match(start: -2),
            count: trivialPatterns.count
        )
        browserPlans.withUnsafeBufferPointer { plans in
            for index in plans.indices {
                if filtersApps, !options.allows(scheme: browsers[index].scheme, platform: browsers[index].platform) {
                    continue
                }
                let patternIndex = plans[index].trivialIndex
                if trivialSafe, patternIndex >= 0 {
                    if trivialMatches[patternIndex].start == -2 {
                        trivialMatches[patternIndex] =
                            trivialPatterns[patternIndex].firstMatch(in: bytes) ?? TrivialPattern.Match(start: -1)
                    }
                    let match = trivialMatches[patternIndex]
                    guard match.start >= 0 else { continue }
                    // Fields are read through the buffer one by one: binding the plan to a local copied every
                    // reference in it (retain and release each) for every browser of every link.
                    if let script = plans[index].script {
                        result.append(
                            Opening(
                                kind: .browser,
                                app: plans[index].app,
                                title: plans[index].title,
                                rule: plans[index].rule,
                                url: nil,
                                needsScript: true,
                                error: nil,
                                script: script
                            )
                        )
                        continue
                    }
                    if let url = plans[index].parts?.render(match, in: bytes) {
                        // The output is the link's own text and the template's: when both are clean, only a
                        // forbidden leading scheme could be wrong, and an output that starts with the template's
                        // own safe scheme (`dolphin://$1` matched from the first byte) cannot have one.
                        let clean =
                            linkIsClean && plans[index].templateIsPlain
                            && (match.start == 0 && plans[index].templateFixesSafeScheme
                                || !OutputSafety.mayStartWithForbiddenScheme(url))
                        let (vetted, problem) = clean ? (url, nil) : OutputSafety.vetted(url)
                        result.append(
                            Opening(
                                kind: .browser,
                                app: plans[index].app,
                                title: plans[index].title,
                                rule: plans[index].rule,
                                url: problem == nil ? vetted : nil,
                                needsScript: false,
                                error: problem.map(OpeningError.unsafeOutput),
                                script: nil
                            )
                        )
                        continue
                    }
                }
                let compiled = browsers[index]
                guard let matches = regex(compiled), !matches.isEmpty else { continue }
                appendOpening(
                    compiled.output,
                    to: &result,
                    kind: .browser,
                    app: compiled.appInfo,
                    title: compiled.appInfo.name,
                    rule: compiled.rule,
                    script: compiled.script
                ) { compiled.regex.render($0, matches: matches, in: text) }
            }
        }
    }

    /// The openings of a matched action: one per format whose app the options allow, each template rendered by
    /// `render(format, template)` (from ICU's offsets or matches, whichever the caller has).
    @inline(__always)
    private func appendFormats(
        of compiled: CompiledAction,
        options: MatchOptions,
        to result: inout [Opening],
        render: (CompiledFormat, String) -> String
    ) {
        for format in compiled.formats where options.allows(scheme: format.scheme, platform: format.platform) {
            appendOpening(
                format.output,
                to: &result,
                kind: .action,
                app: format.appInfo,
                title: compiled.action.title,
                rule: format.rule,
                script: format.script,
                layer: format.layer
            ) { render(format, $0) }
        }
    }

    /// An opening for one output: a template is rendered (and refused when unsafe), a script is left to run.
    /// (Appended here rather than returned: returning it made the optimiser copy every opening once more.)
    package func appendOpening(
        _ output: Output,
        to result: inout [Opening],
        kind: Opening.Kind,
        app: OpeningApp?,
        title: String,
        rule: JSONPointer,
        script: RuleScript?,
        canSave: Bool? = nil,
        layer: RuleLayer? = nil,
        render: (String) -> String
    ) {
        switch output {
        case .template(let template):
            let (url, problem) = OutputSafety.vetted(render(template))
            result.append(
                Opening(
                    kind: kind,
                    app: app,
                    title: title,
                    rule: rule,
                    url: problem == nil ? url : nil,
                    needsScript: false,
                    error: problem.map(OpeningError.unsafeOutput),
                    script: nil,
                    canSave: canSave,
                    layer: layer
                )
            )
        case .script:
            result.append(
                Opening(
                    kind: kind,
                    app: app,
                    title: title,
                    rule: rule,
                    url: nil,
                    needsScript: true,
                    error: nil,
                    script: script,
                    canSave: canSave,
                    layer: layer
                )
            )
        }
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

    /// Whether some `headers` action could match this link once headers are appended: its regex's part before the
    /// `\n` matches the link (a rule whose pattern cannot be split so is assumed to apply). A resolver looks the
    /// headers up only then.
    public func headerRulesCouldApply(to link: Link) -> Bool {
        headerURLPatterns.contains { pattern in pattern.map { $0.matches(link.text) } ?? true }
    }

    /// Compact JSON of response headers, names as sent and in server order (what `headers` actions match against).
    package static func compactJSON(_ headers: HTTPFields) -> String {
        var json = "{"
        for (index, field) in headers.enumerated() {
            if index > 0 { json.append(",") }
            JSONWriter.appendQuoted(field.name.rawName, to: &json)
            json.append(":")
            JSONWriter.appendQuoted(field.value, to: &json)
        }
        return json + "}"
    }
}

/// The first match of an action, as a trace shows it: its UTF-16 range and each group's text.
private struct TraceGroups {
    var range: [Int]
    var texts: [String?]

    init(match: NSTextCheckingResult, in input: String) {
        range = [match.range.location, match.range.length]
        texts = (0..<match.numberOfRanges).map { group in
            Range(match.range(at: group), in: input).map { String(input[$0]) }
        }
    }

    /// From ICU's offsets of an ASCII link (UTF-16 offsets are byte offsets there): start and end of the match, then
    /// of each group, -1 for a group that did not take part.
    init(offsets: [Int], groupCount: Int, in text: String) {
        let bytes = Array(text.utf8)
        range = [offsets[0], offsets[1] - offsets[0]]
        texts = (0...groupCount).map { group in
            let start = offsets[2 * group]
            let end = offsets[2 * group + 1]
            guard start >= 0, end >= start, end <= bytes.count else { return nil }
            return String(decoding: bytes[start..<end], as: UTF8.self)
        }
    }
}
