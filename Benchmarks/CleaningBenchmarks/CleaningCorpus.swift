import LinkCleaning
import LinkMatching
import SwitchyardBenchmarks
import WebLinks

/// Links made from a catalog at run time: for each provider, a link its `urlPattern` matches (written by
/// ``PatternExample`` and checked with the provider's regex), then variants carrying its tracking fields, kept fields
/// and a fragment; plus links no provider names. Nothing is copied from the catalog's source.
package enum CleaningCorpus {
    /// A link `provider`'s `urlPattern` matches (nil when none of the variants tried gives one): the pattern's
    /// example, completed into a web link when it is only part of one.
    package static func link(for provider: CleaningProvider, avoidingExceptions: Bool = true) -> Link? {
        for variant in 0..<16 {
            guard let example = PatternExample.text(matching: provider.urlPattern.source, variant: variant) else {
                continue
            }
            let lowered = example.lowercased()
            let candidates =
                lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
                ? [example, example + "/", example + "a/"]
                : ["https://www.example.com/" + example, "https://" + example, "https://" + example + "/"]
            for candidate in candidates {
                guard let link = try? Link(candidate), provider.urlPattern.regex.matches(link.text) else { continue }
                if avoidingExceptions, provider.exceptions.contains(where: { $0.regex.matches(link.text) }) { continue }
                return link
            }
        }
        return nil
    }

    /// A field name `rule` (a `rules` or `referralMarketing` pattern) matches, checked with its regex.
    package static func fieldName(for rule: CleaningPattern) -> String? {
        for variant in 0..<8 {
            guard let name = PatternExample.text(matching: rule.source, variant: variant), !name.isEmpty,
                !name.contains("&"), !name.contains("="), !name.contains("#"), rule.regex.matches(name)
            else { continue }
            return name
        }
        return nil
    }

    /// `link` with `fields` appended to its query (the fields written as they are).
    package static func appending(_ fields: [String], to link: Link) -> String {
        let text = link.text
        let hash = text.firstIndex(of: "#")
        let head = text[..<(hash ?? text.endIndex)]
        let tail = hash.map { String(text[$0...]) } ?? ""
        let separator = head.contains("?") ? (head.hasSuffix("?") || head.hasSuffix("&") ? "" : "&") : "?"
        return head + separator + fields.joined(separator: "&") + tail
    }

    /// About `count` links: per provider, its example link with two tracking fields of its own, kept fields and a
    /// fragment, and links of hosts no provider names.
    package static func make(for catalog: CleaningCatalog, count: Int) -> [String] {
        var base: [String] = []
        for (number, provider) in catalog.providers.enumerated() {
            guard let link = link(for: provider) else { continue }
            let tracking = (provider.rules + provider.referralMarketing).prefix(3).compactMap(fieldName(for:))
            base.append(link.text)
            base.append(
                appending(["id=\(number)"] + tracking.map { "\($0)=x\(number)" } + ["q=caf%C3%A9+au+lait"], to: link)
            )
            base.append(appending(tracking.map { "\($0)=1" }, to: link) + "#a=1&" + (tracking.first ?? "b") + "=2")
        }
        for number in 0..<max(1, count / 10) {
            base.append("https://site\(number).example.org/articles/\(number)?page=\(number)&utm_source=feed&ref=home")
        }
        guard !base.isEmpty else { return [] }
        return (0..<max(count, 1)).map { base[$0 % base.count] }
    }
}
