import Foundation
import LinkCleaning
import LinkMatching
import SwitchyardBenchmarks
import WebLinks

extension LinkCleaner {
    /// The naive baseline: every provider's regexes through `NSRegularExpression` on every link, every field name
    /// against every rule's own regex, no prefilter, no table of names and no time budget; the same order of
    /// operations and the same text operations (``LinkText``). Kept for the differential test and the benchmark.
    package func naiveClean(_ link: Link, options: CleaningOptions = CleaningOptions()) -> CleaningResult {
        let farDeadline = ContinuousClock.now + .seconds(3600)
        var text = link.text
        var host = link.host
        var steps: [CleaningStep] = []
        var blockedBy: String?
        var skipped = false
        passes: for _ in 0..<Self.maximumPasses {
            if options.skip(host) {
                skipped = true
                break
            }
            let start = text
            for provider in catalog.providers {
                guard provider.urlPattern.regex.matches(text),
                    !provider.exceptions.contains(where: { $0.regex.matches(text) })
                else { continue }
                for redirection in provider.redirections {
                    guard let match = redirection.regex.firstMatch(in: text) else { continue }
                    if let range = Range(match.range(at: 1), in: text),
                        let target = LinkText.redirectTarget(text[range])
                    {
                        steps.append(CleaningStep(action: .unwrapped, rule: redirection.rule, text: target.text))
                        text = target.text
                        host = target.host
                        continue passes
                    }
                    break
                }
                if provider.completeProvider {
                    blockedBy = blockedBy ?? provider.name
                    continue
                }
                for raw in provider.rawRules {
                    guard case .matches(let found) = raw.regex.matches(in: text, deadline: farDeadline) else {
                        continue
                    }
                    let ranges = found.map { $0.range.location..<($0.range.location + $0.range.length) }.filter {
                        !$0.isEmpty
                    }
                    guard !ranges.isEmpty else { continue }
                    let (removed, pieces) = LinkText.removing(ranges, from: Array(text.utf16))
                    guard LinkText.keepsHost(removed, of: host) else { continue }
                    steps += pieces.map { CleaningStep(action: .removedText, rule: raw.rule, text: $0) }
                    text = removed
                }
                let referral =
                    options.allowReferralMarketing
                    ? []
                    : provider.referralMarketing.filter { rule in !provider.rules.contains { $0.source == rule.source }
                    }
                let ordered = provider.rules + referral
                if let removed = LinkText.removingFields(
                    from: text,
                    rule: { name in ordered.first { $0.regex.matches(name) }?.rule }
                ) {
                    steps += removed.steps
                    text = removed.text
                }
            }
            if text == start { break }
        }
        return CleaningResult(input: link.text, link: text, blockedBy: blockedBy, skipped: skipped, steps: steps)
    }
}
