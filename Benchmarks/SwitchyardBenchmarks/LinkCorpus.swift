import Foundation
import LinkMatching
import LinkRules

/// A deterministic corpus of links for the differential test and the benchmark: every test input of a rule set,
/// plus generated links across many hosts (known services' hosts with varied paths, unknown hosts, links embedded
/// in query strings, case and port variants), reproducible from a seed.
package enum LinkCorpus {
    /// The rule set's own test inputs (actions, browsers, redirects), then `generated` more links.
    package static func make(for rules: RuleSet, generated count: Int, seed: UInt64 = 0x5EED) -> [String] {
        var links: [String] = []
        for action in rules.manifest.actions { links += action.testInputs }
        for browser in rules.manifest.browsers { links += browser.testInputs }
        for rule in rules.manifest.redirects { links += rule.tests.map(\.input) }
        return links + generate(count, hostsFrom: links, seed: seed)
    }

    /// `count` generated links; hosts are taken from `seedLinks` and from a list of common and made-up hosts.
    package static func generate(_ count: Int, hostsFrom seedLinks: [String], seed: UInt64) -> [String] {
        var random = SplitMix64(seed: seed)
        let knownHosts = Array(Set(seedLinks.compactMap(host(of:)))).sorted()
        let paths = Array(Set(seedLinks.compactMap(path(of:)))).sorted()
        let words = [
            "news", "blog", "shop", "media", "cloud", "mail", "maps", "video", "music", "docs", "app", "dev",
            "photo", "store", "forum", "wiki", "play", "live", "data", "home",
        ]
        let tlds = ["com", "org", "net", "io", "co.uk", "de", "fr", "jp", "app", "dev"]
        var links: [String] = []
        links.reserveCapacity(count)
        for index in 0..<count {
            let scheme = random.next(4) == 0 ? "http" : "https"
            let host: String
            switch random.next(3) {
            case 0 where !knownHosts.isEmpty:
                host = knownHosts[random.next(knownHosts.count)]
            case 1:
                host = "\(words[random.next(words.count)])\(random.next(1000)).\(tlds[random.next(tlds.count)])"
            default:
                host =
                    "www.\(words[random.next(words.count)])-\(words[random.next(words.count)]).\(tlds[random.next(tlds.count)])"
            }
            var path =
                paths.isEmpty || random.next(3) == 0
                ? "/\(words[random.next(words.count)])/\(random.next(1_000_000))"
                : paths[random.next(paths.count)]
            if random.next(5) == 0 { path += "?utm_source=\(words[random.next(words.count)])&id=\(index)" }
            if random.next(10) == 0, !knownHosts.isEmpty {
                // A link embedded in another link's query string: unanchored rules match these too.
                path += (path.contains("?") ? "&" : "?") + "url=https://\(knownHosts[random.next(knownHosts.count)])/x"
            }
            if random.next(20) == 0 { path += "#section-\(random.next(10))" }
            let port = random.next(50) == 0 ? ":8080" : ""
            let finalHost = random.next(25) == 0 ? host.uppercased() : host
            links.append("\(scheme)://\(finalHost)\(port)\(path)")
        }
        return links
    }

    static func host(of link: String) -> String? {
        guard let schemeEnd = link.range(of: "://") else { return nil }
        let rest = link[schemeEnd.upperBound...]
        let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" && $0 != ":" }
        return host.isEmpty || host.contains(" ") ? nil : String(host)
    }

    static func path(of link: String) -> String? {
        guard let schemeEnd = link.range(of: "://") else { return nil }
        let rest = link[schemeEnd.upperBound...]
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        return String(rest[slash...])
    }
}

/// A small, fast, seedable generator (SplitMix64), so corpora are the same on every machine.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func nextValue() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<upperBound` (upperBound > 0).
    mutating func next(_ upperBound: Int) -> Int {
        Int(nextValue() % UInt64(max(upperBound, 1)))
    }
}
