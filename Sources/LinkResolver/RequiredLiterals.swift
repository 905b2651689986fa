/// Derives, from a regex, a set of literals at least one of which every match must contain (lower-cased ASCII).
///
/// This is the prefilter's key: `https?://(www\.)?twitter\.com/…` must contain `twitter.com`;
/// `(youtube\.com|youtu\.be)` one of two. The analysis follows RE2's prefilter: each node knows either the finite
/// set of strings it matches exactly (small sets only) or a set of required literals; concatenation keeps the most
/// selective, alternation unions. Nil means "no literal is required": the rule is always confirmed by its regex.
enum RequiredLiterals {
    private static let maximumExactStrings = 256
    private static let maximumLiteralLength = 64

    private struct Info {
        /// Every string the node can match, when few; may contain "".
        var exact: Set<[UInt8]>?
        /// At least one of these occurs in every match; nil when nothing is known.
        var required: Set<[UInt8]>?

        /// The most selective of the exact set (when it holds no empty string) and the required set.
        var best: Set<[UInt8]>? {
            var candidates: [Set<[UInt8]>] = []
            if let exact, !exact.contains([]) { candidates.append(exact) }
            if let required { candidates.append(required) }
            return candidates.max { RequiredLiterals.score($0) < RequiredLiterals.score($1) }
        }
    }

    /// The required literals of `pattern`, or nil when the rule cannot be indexed.
    static func of(_ pattern: String) -> [String]? {
        guard let node = RegexSyntaxParser.parse(pattern), let best = info(node).best,
            best.allSatisfy({ weight($0) > 0 })
        else { return nil }
        return best.map { String(decoding: $0, as: UTF8.self) }.sorted()
    }

    /// The most selective set wins: the one whose weakest literal is longest, then the one with fewer alternatives.
    /// A literal every link contains (`http://`, `https://www.`, `.com`) is worth nothing.
    static func score(_ set: Set<[UInt8]>) -> (Int, Int) {
        (set.map(weight).min() ?? 0, -set.count)
    }

    private static let commonURLText: [[UInt8]] = ["https://www.", "http://www.", ".com/", ".html"].map { Array($0.utf8) }

    static func weight(_ literal: [UInt8]) -> Int {
        for common in commonURLText where common.count >= literal.count {
            // Contained in text most links carry.
            for offset in 0...(common.count - literal.count) where common[offset..<(offset + literal.count)].elementsEqual(literal) {
                return 0
            }
        }
        return literal.count
    }

    private static func info(_ node: RegexNode) -> Info {
        switch node {
        case .literal(let byte):
            return Info(exact: [[byte]], required: nil)
        case .anyCharacter:
            return Info(exact: nil, required: nil)
        case .empty:
            return Info(exact: [[]], required: nil)
        case .concatenation(let items):
            return concatenate(items.map(info))
        case .alternation(let branches):
            let infos = branches.map(info)
            var exact: Set<[UInt8]>? = []
            for branch in infos {
                guard let branchExact = branch.exact, let soFar = exact else { exact = nil; break }
                exact = soFar.union(branchExact)
            }
            if let union = exact, union.count > maximumExactStrings { exact = nil }
            var required: Set<[UInt8]>? = []
            for branch in infos {
                guard let best = branch.best, let soFar = required else { required = nil; break }
                required = soFar.union(best)
            }
            return Info(exact: exact, required: required)
        case .repetition(let inner, let minimum, let maximum):
            let innerInfo = info(inner)
            if minimum == 0 {
                if maximum == 1, var exact = innerInfo.exact {
                    exact.insert([])
                    return Info(exact: exact, required: nil)
                }
                return Info(exact: nil, required: nil)
            }
            if minimum == 1 && maximum == 1 { return innerInfo }
            return Info(exact: nil, required: innerInfo.best)
        }
    }

    /// Splits the sequence into runs whose exact strings stay few (each run's strings are required alternatives),
    /// and keeps the most selective of those runs and of the items' own required sets. `https?://(\w+\.)?foo\.com`
    /// yields the runs {http://, https://} and {foo.com}; the second wins.
    private static func concatenate(_ items: [Info]) -> Info {
        var candidates: [Set<[UInt8]>] = []
        var run: Set<[UInt8]> = [[]]
        var wholeIsExact = true
        func closeRun() {
            if !run.contains([]) { candidates.append(run) }
        }
        for item in items {
            if let exact = item.exact, run.count * exact.count <= maximumExactStrings {
                var product: Set<[UInt8]> = []
                for a in run {
                    for b in exact { product.insert(a + b) }
                }
                if product.allSatisfy({ $0.count <= maximumLiteralLength }) {
                    run = product
                    continue
                }
            }
            wholeIsExact = false
            closeRun()
            if let best = item.best { candidates.append(best) }
            run = item.exact.map { $0.count <= maximumExactStrings ? $0 : [[]] } ?? [[]]
        }
        closeRun()
        let required = candidates.max { score($0) < score($1) }
        return Info(exact: wholeIsExact ? run : nil, required: required)
    }
}
