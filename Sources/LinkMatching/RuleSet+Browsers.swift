import Foundation
import LinkRules
import WebLinks

extension RuleSet {
    /// Every browser that opens the link: trivial patterns (`.+`, `(https?.*)`, …) matched once each without a regex
    /// engine and rendered straight from the link's bytes; the others through `regex` (nil: it ran out of time).
    func matchBrowsers(
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
}
