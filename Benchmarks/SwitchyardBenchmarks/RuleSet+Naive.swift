import Foundation
import LinkMatching
import LinkRules
import WebLinks

extension RuleSet {
    /// The naive baseline Opener-style engines use: every regex through `NSRegularExpression` on every link, every
    /// format rendered with `stringByReplacingMatches`, no prefilter and no time budget. Kept for the differential
    /// test and the benchmark; never used to answer requests.
    package func naiveOpenings(for link: Link, options: MatchOptions = MatchOptions()) -> [Opening] {
        let link = link.text
        var result: [Opening] = []
        let headerInput = options.headers.map { link + "\n" + Self.compactJSON($0) }
        for compiled in actions {
            let input = compiled.action.headers ? (headerInput ?? link) : link
            let formats = compiled.formats.filter { options.allows($0.app) }
            guard !formats.isEmpty, compiled.regex.matches(input) else { continue }
            for format in formats {
                appendOpening(
                    format.output,
                    to: &result,
                    kind: .action,
                    app: format.appInfo,
                    title: compiled.action.title,
                    rule: format.rule,
                    script: format.script
                ) { compiled.regex.replacingMatches(in: input, with: $0) }
            }
        }
        if options.includeBrowsers {
            for compiled in browsers where options.allows(compiled.browser.app) && compiled.regex.matches(link) {
                appendOpening(
                    compiled.output,
                    to: &result,
                    kind: .browser,
                    app: compiled.appInfo,
                    title: compiled.browser.app.name,
                    rule: compiled.rule,
                    script: compiled.script
                ) { compiled.regex.replacingMatches(in: link, with: $0) }
            }
        }
        if options.includePreviews {
            for compiled in previews where compiled.regex.matches(link) {
                appendOpening(
                    compiled.output,
                    to: &result,
                    kind: .preview,
                    app: nil,
                    title: "Preview",
                    rule: compiled.rule,
                    script: compiled.script,
                    canSave: compiled.preview.canSave
                ) { compiled.regex.replacingMatches(in: link, with: $0) }
            }
        }
        return result
    }
}
