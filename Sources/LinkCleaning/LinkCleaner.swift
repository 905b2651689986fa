import LinkMatching
import Synchronization
import WebLinks

/// Cleans links with a ClearURLs catalog, compiled once: `Sendable`, and cheap to call from any thread.
///
/// Per link, a literal automaton over every provider's `urlPattern` (the required text such as `amazon` or
/// `google`) picks the few providers that could apply; only those run their regexes, through ICU's C API. Field
/// names are looked up in a table when a rule is a plain name (most are) and matched by regex otherwise. The order
/// of operations is the add-on's; see the LinkCleaning article for the reading of its behaviour.
public struct LinkCleaner: Sendable {
    /// The most passes over the providers (each redirect unwrapped starts one): the add-on repeats until the link
    /// stops changing, which a few passes always reach on real links; the bound only stops a hostile one.
    public static let maximumPasses = 16

    /// The catalog the cleaner was compiled from.
    public let catalog: CleaningCatalog
    /// What identifies the cleaner's work in a resolution's cache key: `clearurls:` and the catalog's SHA-256 (for a
    /// catalog made from providers, a name unique to this cleaner in this process).
    public let identity: String
    private let prefilter: Prefilter
    /// Per provider: the field rules without and with referral marketing allowed.
    private let fieldRules: [(strict: FieldRules, allowingReferral: FieldRules)]
    /// Per provider with several exceptions or redirections, their own prefilter (the catch-all provider has dozens
    /// of exceptions, each of which would otherwise run on every link).
    private let exceptionFilters: [Prefilter?]
    private let redirectionFilters: [Prefilter?]

    /// Compiles `catalog`.
    public init(catalog: CleaningCatalog) {
        self.catalog = catalog
        identity = "clearurls:" + (catalog.sha256 ?? "unhashed-\(Self.unhashed.add(1, ordering: .relaxed).newValue)")
        prefilter = Prefilter(patterns: catalog.providers.map(\.urlPattern.icuPattern))
        fieldRules = catalog.providers.map { provider in
            let referral = provider.referralMarketing.filter { pattern in
                !provider.rules.contains { $0.source == pattern.source }
            }
            return (FieldRules(provider.rules + referral), FieldRules(provider.rules))
        }
        exceptionFilters = catalog.providers.map { Self.prefilter($0.exceptions) }
        redirectionFilters = catalog.providers.map { Self.prefilter($0.redirections) }
    }

    private static let unhashed = Atomic<Int>(0)

    private static func prefilter(_ patterns: [CleaningPattern]) -> Prefilter? {
        patterns.count > 1 ? Prefilter(patterns: patterns.map(\.icuPattern)) : nil
    }

    /// The patterns of `list` that could match the link of `bytes`, in order.
    private func possible(_ list: [CleaningPattern], _ filter: Prefilter?, _ bytes: LinkBytes) -> [CleaningPattern] {
        guard let filter else { return list }
        return filter.candidateIndexes(for: bytes).map { list[$0] }
    }

    /// Reads, decodes and compiles catalog JSON; `file` names it in diagnostics.
    public init(json: String, file: String? = nil) throws(CleaningError) {
        self.init(catalog: try CleaningCatalog(json: json, file: file))
    }

    /// Parses `text` as a link (`Link`) and cleans it.
    public func clean(_ text: String, options: CleaningOptions = CleaningOptions()) throws(LinkError) -> CleaningResult
    {
        clean(try Link(text), options: options)
    }

    /// Cleans `link`: redirects unwrapped, tracking fields and parts removed, repeated until nothing changes.
    public func clean(_ link: Link, options: CleaningOptions = CleaningOptions()) -> CleaningResult {
        var run = RegexRun(deadline: .now + options.timeLimit)
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
            var utf16 = Array(text.utf16)
            var bytes = LinkBytes(text)
            var candidates = prefilter.candidateIndexes(for: bytes)
            var position = 0
            while position < candidates.count {
                let index = candidates[position]
                position += 1
                let provider = catalog.providers[index]
                guard run.first(provider.urlPattern, text, utf16) != nil,
                    !possible(provider.exceptions, exceptionFilters[index], bytes).contains(where: {
                        run.first($0, text, utf16) != nil
                    })
                else { continue }
                for redirection in possible(provider.redirections, redirectionFilters[index], bytes) {
                    guard let found = run.first(redirection, text, utf16) else { continue }
                    // The first redirection that matches decides; a target that is not a link is not followed.
                    if let range = found.range(0, group: 1),
                        let target = LinkText.redirectTarget(Substring(String(decoding: utf16[range], as: UTF16.self)))
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
                let before = text
                for raw in provider.rawRules {
                    guard let found = run.all(raw, text, utf16) else { continue }
                    let ranges = (0..<found.count).compactMap { found.range($0) }.filter { !$0.isEmpty }
                    guard !ranges.isEmpty else { continue }
                    let (removed, pieces) = LinkText.removing(ranges, from: utf16)
                    guard LinkText.keepsHost(removed, of: host) else { continue }
                    steps += pieces.map { CleaningStep(action: .removedText, rule: raw.rule, text: $0) }
                    text = removed
                    utf16 = Array(text.utf16)
                }
                let fields =
                    options.allowReferralMarketing ? fieldRules[index].allowingReferral : fieldRules[index].strict
                if !fields.isEmpty,
                    let removed = LinkText.removingFields(from: text, rule: { fields.rule(for: $0, run: &run) })
                {
                    steps += removed.steps
                    text = removed.text
                    utf16 = Array(text.utf16)
                }
                if text != before {
                    // Removing text can bring other providers' literals together: look again, for the later ones.
                    bytes = LinkBytes(text)
                    candidates = prefilter.candidateIndexes(for: bytes).filter { $0 > index }
                    position = 0
                }
            }
            if text == start { break }
        }
        return CleaningResult(
            input: link.text,
            link: text,
            blockedBy: blockedBy,
            skipped: skipped,
            timedOut: run.timedOut,
            steps: steps
        )
    }
}

/// The regexes of one link's cleaning under one deadline; a regex stopped by it (or failing) counts as no match.
struct RegexRun {
    let deadline: ContinuousClock.Instant
    var timedOut = false

    /// The first match of `pattern` in `text`, nil when none.
    mutating func first(_ pattern: CleaningPattern, _ text: String, _ utf16: [UInt16]) -> RegexMatchOffsets? {
        matches(pattern, text, utf16, firstOnly: true)
    }

    /// Every match of `pattern` in `text`, nil when none.
    mutating func all(_ pattern: CleaningPattern, _ text: String, _ utf16: [UInt16]) -> RegexMatchOffsets? {
        matches(pattern, text, utf16, firstOnly: false)
    }

    private mutating func matches(
        _ pattern: CleaningPattern,
        _ text: String,
        _ utf16: [UInt16],
        firstOnly: Bool
    ) -> RegexMatchOffsets? {
        guard let found = pattern.regex.matchOffsets(in: text, utf16: utf16, firstOnly: firstOnly, deadline: deadline)
        else {
            timedOut = true
            return nil
        }
        return found.count > 0 ? found : nil
    }
}
