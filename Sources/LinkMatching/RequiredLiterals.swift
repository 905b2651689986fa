import Foundation

/// Derives, from a regex, a set of literals at least one of which every match must contain (lower-cased ASCII;
/// byte 0 stands for the end of the input, which the prefilter appends when it scans).
///
/// This is the prefilter's key: `https?://(www\.)?twitter\.com/…` must contain `twitter.com`;
/// `(youtube\.com|youtu\.be)` one of two. The analysis follows RE2's prefilter: each node knows the finite set of
/// strings it matches exactly (when small), the prefixes every match starts with, and a set of required literals;
/// concatenation keeps the most selective, alternation unions. Nil means "no literal is required": the rule is
/// always confirmed by its regex.
package enum RequiredLiterals {
    private static let maximumExactStrings = 256
    private static let maximumLiteralLength = 64
    /// The byte the prefilter appends to every link, so that `$`-anchored rules can be indexed too.
    static let endOfText: UInt8 = 0

    // Literals are Strings while the analysis runs: they are ASCII and mostly under 16 bytes, which Swift stores
    // inline, so building and hashing thousands of them allocates almost nothing (as byte arrays, allocation and
    // hashing were two thirds of the analysis, itself half of loading the v5 manifest).
    private struct Info {
        /// Every string the node can match, when few; may contain "".
        let exact: Set<String>?
        /// Every match starts with one of these (contains "" when nothing is known).
        let prefixes: Set<String>
        /// At least one of these occurs in every match; nil when nothing is known.
        let required: Set<String>?
        /// The most selective of the exact set (when it holds no empty string), the prefixes and the required set.
        /// Computed when asked (at most once or twice per node): most nodes are absorbed into an exact run and
        /// never asked, and scoring every node's sets up front was a third of the analysis.
        var best: Set<String>? {
            if isLiteral { return exact.flatMap { $0.contains("") ? nil : $0 } }
            var best: (set: Set<String>, score: (Int, Int))?
            for candidate in [exact, required, prefixes] {
                guard let candidate, !candidate.contains("") else { continue }
                let score = RequiredLiterals.score(candidate)
                if let current = best, current.score >= score { continue }
                best = (candidate, score)
            }
            return best?.set
        }
        /// A literal string, which is its own exact, prefix and best set.
        private let isLiteral: Bool

        /// A literal string (the common case, made cheaply).
        init(literal: String) {
            exact = [literal]
            prefixes = exact ?? []
            required = nil
            isLiteral = true
        }

        init(exact: Set<String>?, prefixes: Set<String> = [""], required: Set<String>? = nil) {
            self.exact = exact
            self.prefixes = prefixes
            self.required = required
            isLiteral = false
        }
    }

    /// The required literals of `pattern`, or nil when the rule cannot be indexed.
    package static func of(_ pattern: String) -> [String]? {
        guard let node = RegexSyntaxParser.parse(pattern), let found = info(node).best else { return nil }
        // `$$`, `$\z`, `(a$)$`: consecutive end anchors name one position, and the scan appends one end marker.
        let best = Set(found.map { collapsingEndMarkers(Array($0.utf8)) })
        guard best.allSatisfy({ weight($0) > 0 }) else { return nil }
        // OR semantics: a literal containing another one of the set is redundant ("twitter.com/status/" holds
        // "twitter.com/"), so only the minimal ones are indexed.
        // Compared as bytes: Foundation's `String.contains` skips the 0 end marker, so `abc` and `abc\0` each
        // "contained" the other and both were dropped, leaving a rule with no literal that never became a candidate.
        let literals = Array(Set(best.map(trimmed)))
        let minimal = literals.filter { literal in !literals.contains { $0 != literal && holds(literal, $0) } }
        return minimal.map { String(decoding: $0, as: UTF8.self) }.sorted()
    }

    /// Whether `literal` contains `other`, byte for byte.
    static func holds(_ literal: [UInt8], _ other: [UInt8]) -> Bool {
        guard other.count <= literal.count else { return false }
        return (0...(literal.count - other.count)).contains { start in
            literal[start..<(start + other.count)].elementsEqual(other)
        }
    }

    /// The literal with each run of end markers reduced to one (a 0 byte after a 0 byte is dropped).
    static func collapsingEndMarkers(_ literal: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(literal.count)
        for byte in literal where byte != endOfText || result.last != endOfText {
            result.append(byte)
        }
        return result
    }

    /// A shorter literal that is still required: any substring of a required literal is required too, so the
    /// scheme and common subdomains are dropped (`https://www.twitter.com/` → `twitter.com/`), which collapses
    /// the variants into one and keeps the automaton small.
    static func trimmed(_ literal: [UInt8]) -> [UInt8] {
        var rest = literal[...]
        if let separator = rest.indices.first(where: { rest[$0...].starts(with: "://".utf8) }) {
            rest = rest[(separator + 3)...]
        }
        for subdomain in ["www.", "mobile.", "m."] where rest.starts(with: subdomain.utf8) {
            rest = rest.dropFirst(subdomain.utf8.count)
            break
        }
        let candidate = Array(rest)
        return weight(candidate) >= 4 ? candidate : literal
    }

    /// The most selective set wins: the one whose weakest literal is longest, then the one with fewer alternatives.
    /// A literal every link contains (`http://`, `https://www.`, `.com`) is worth nothing.
    static func score(_ set: Set<String>) -> (Int, Int) {
        var weakest = Int.max
        for literal in set { weakest = min(weakest, weight(literal)) }
        return (set.isEmpty ? 0 : weakest, -set.count)
    }

    private static let commonURLText: [[UInt8]] = ["https://www.", "http://www.", ".com/", ".html", "\0"].map {
        Array($0.utf8)
    }

    private static let longestCommonText = commonURLText.map(\.count).max() ?? 0

    static func weight(_ literal: String) -> Int {
        var literal = literal
        return literal.withUTF8 { weight($0) }
    }

    static func weight(_ literal: [UInt8]) -> Int {
        literal.withUnsafeBufferPointer { weight($0) }
    }

    static func weight(_ literal: UnsafeBufferPointer<UInt8>) -> Int {
        if literal.count > longestCommonText { return literal.count }
        for common in commonURLText where common.count >= literal.count {
            // Contained in text most links carry.
            for offset in 0...(common.count - literal.count)
            where common[offset..<(offset + literal.count)].elementsEqual(literal) {
                return 0
            }
        }
        return literal.count
    }

    private static func product(_ lhs: Set<String>, _ rhs: Set<String>) -> Set<String>? {
        guard lhs.count * rhs.count <= maximumExactStrings else { return nil }
        var result: Set<String> = []
        result.reserveCapacity(lhs.count * rhs.count)
        for a in lhs {
            for b in rhs {
                let joined = a + b
                guard joined.utf8.count <= maximumLiteralLength else { return nil }
                result.insert(joined)
            }
        }
        return result
    }

    private static func info(_ node: RegexNode) -> Info {
        switch node {
        case .literal(let byte):
            return Info(literal: String(UnicodeScalar(byte)))
        case .anyCharacter:
            return Info(exact: nil)
        case .empty:
            return Info(exact: [""])
        case .concatenation(let items):
            // An optional group that would break the analysis (`https?(://…)?$`) is expanded: the sequence with it
            // and the sequence without it are analysed as two alternatives (the first such group only, so the
            // work stays linear).
            var infos: [Info] = []
            var expansion: (index: Int, inner: Info)?
            var literalRun = ""
            for (position, item) in items.enumerated() {
                // Consecutive literal characters become one string (one node's worth of work, not one per byte),
                // unless the next item is a quantifier applied to the last character only (handled by `item`).
                if case .literal(let byte) = item {
                    literalRun.unicodeScalars.append(UnicodeScalar(byte))
                    let next = position + 1 < items.count ? items[position + 1] : nil
                    if case .literal = next { continue }
                    infos.append(Info(literal: literalRun))
                    literalRun = ""
                    continue
                }
                if case .repetition(let inner, 0, 1) = item {
                    let innerInfo = info(inner)
                    if var exact = innerInfo.exact {
                        exact.insert("")
                        infos.append(Info(exact: exact))
                    } else {
                        if expansion == nil { expansion = (infos.count, innerInfo) }
                        infos.append(Info(exact: nil))
                    }
                } else {
                    infos.append(info(item))
                }
            }
            if let expansion {
                var present = infos
                present[expansion.index] = expansion.inner
                var absent = infos
                absent.remove(at: expansion.index)
                return alternate([concatenate(present), concatenate(absent)])
            }
            return concatenate(infos)
        case .alternation(let branches):
            return alternate(branches.map(info))
        case .repetition(let inner, let minimum, let maximum):
            let innerInfo = info(inner)
            if minimum == 0 {
                if maximum == 1, var exact = innerInfo.exact {
                    exact.insert("")
                    return Info(exact: exact)
                }
                return Info(exact: nil)
            }
            if minimum == 1 && maximum == 1 { return innerInfo }
            return Info(exact: nil, prefixes: innerInfo.prefixes, required: innerInfo.best)
        }
    }

    private static func alternate(_ infos: [Info]) -> Info {
        var exact: Set<String>? = []
        var prefixes: Set<String> = []
        var required: Set<String>? = []
        for branch in infos {
            if let branchExact = branch.exact, let soFar = exact {
                exact = soFar.union(branchExact)
            } else {
                exact = nil
            }
            prefixes.formUnion(branch.prefixes)
            if let best = branch.best, let soFar = required {
                required = soFar.union(best)
            } else {
                required = nil
            }
        }
        if let union = exact, union.count > maximumExactStrings { exact = nil }
        if prefixes.count > maximumExactStrings { prefixes = [""] }
        return Info(exact: exact, prefixes: prefixes, required: required)
    }

    /// Splits the sequence into runs whose exact strings stay few (each run's strings are required alternatives),
    /// extends a run by the prefixes of the item that ends it, and keeps the most selective of those sets and of
    /// the items' own required sets. `https?://(\w+\.)?foo\.com` yields {http://, https://} and {foo.com}; the
    /// second wins. `\.(mp4|mx.n)` yields {.mp4, .mx}.
    private static func concatenate(_ items: [Info]) -> Info {
        var candidates: [Set<String>] = []
        // The current run as an array: extending it by one character (the common case) appends in place.
        var run: [String] = [""]
        var wholeIsExact = true
        var prefixes: Set<String>?
        func closeRun() {
            if !run.contains("") { candidates.append(Set(run)) }
        }
        for item in items {
            if let exact = item.exact {
                if exact.count == 1, let suffix = exact.first,
                    (run.first?.utf8.count ?? 0) + suffix.utf8.count <= maximumLiteralLength
                {
                    for index in run.indices { run[index] += suffix }
                    continue
                }
                if let extended = product(Set(run), exact) {
                    run = Array(extended)
                    continue
                }
            }
            let runSet = Set(run)
            if prefixes == nil, wholeIsExact {
                prefixes = product(runSet, item.prefixes) ?? runSet
            }
            wholeIsExact = false
            if !item.prefixes.contains(""), let extended = product(runSet, item.prefixes) {
                candidates.append(extended)
            }
            closeRun()
            if let best = item.best { candidates.append(best) }
            run = item.exact.map { $0.count <= maximumExactStrings ? Array($0) : [""] } ?? [""]
        }
        closeRun()
        let required = candidates.map { ($0, score($0)) }.max { $0.1 < $1.1 }?.0
        let runSet = Set(run)
        return Info(
            exact: wholeIsExact ? runSet : nil,
            prefixes: wholeIsExact ? runSet : (prefixes ?? [""]),
            required: required
        )
    }
}
