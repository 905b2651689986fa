import Foundation
import LinkMatching
import LinkRules
import WebLinks

/// Measures, in one run on one corpus, the naive loop (every regex through `NSRegularExpression`, every format
/// rendered, browsers included) against the compiled resolver, plus load time and the offline test-suite time.
package struct ResolverBenchmark: Sendable {
    /// Per-URL timings of one engine.
    package struct Timing: Sendable, Codable, Equatable {
        /// Whole-corpus time divided by its size, median over repetitions (µs).
        package var meanMicros: Double
        /// The median per-URL time (µs).
        package var medianMicros: Double
        /// The 99th-percentile per-URL time (µs).
        package var p99Micros: Double

        /// Creates a timing (the cleaning benchmark makes its own).
        package init(meanMicros: Double, medianMicros: Double, p99Micros: Double) {
            self.meanMicros = meanMicros
            self.medianMicros = medianMicros
            self.p99Micros = p99Micros
        }
    }

    /// The figures of one run.
    package struct Report: Sendable, Codable, Equatable {
        package var urls: Int
        package var naive: Timing
        package var compiled: Timing
        /// naive.meanMicros / compiled.meanMicros.
        package var ratio: Double
        /// Manifest load + compile, median of several (ms).
        package var loadMillis: Double
        /// The whole offline embedded test suite (scripts skipped) (ms).
        package var testSuiteMillis: Double
        /// Links whose openings differ between the two engines (must be 0).
        package var mismatches: Int
    }

    /// The links to resolve (normalised before any clock starts).
    package var corpus: [Link]
    /// Repetitions of the whole corpus per engine.
    package var repetitions: (naive: Int, compiled: Int)

    /// Creates a benchmark.
    /// Creates a benchmark over the texts of `corpus` that the link normaliser accepts.
    package init(corpus: [String], repetitions: (naive: Int, compiled: Int) = (3, 7)) {
        self.corpus = corpus.compactMap { try? Link($0) }
        self.repetitions = repetitions
    }

    /// Runs it. Scripts are excluded from both engines (listed, not run). `load` loads and compiles the rule set
    /// anew (timed 21 times), `testSuite` runs its offline embedded tests (timed once): both are the caller's, so
    /// that this target needs only the matcher. `progress` gets each phase's result as a line; `step` gets each
    /// step done of all the run's steps and what it was, for a progress bar.
    package func run(
        rules: RuleSet,
        load: () -> RuleSet?,
        testSuite: () async -> Void,
        progress: (String) -> Void = { _ in },
        step: (_ done: Int, _ total: Int, _ phase: String) -> Void = { _, _, _ in }
    ) async -> Report {
        let clock = ContinuousClock()
        var loadTimes: [Double] = []
        let loads = 21
        let naiveCount = max(repetitions.naive, 1)
        let compiledCount = max(repetitions.compiled, 1)
        // Loads, the test suite, the mismatch pass, and every timed pass of each engine.
        let total = loads + 2 + naiveCount + compiledCount
        var done = 0
        func advance(_ phase: String) {
            done += 1
            step(done, total, phase)
        }
        // 21 loads: one load is tens of milliseconds, and on a shared machine single runs vary by a third.
        for _ in 0..<loads {
            let start = clock.now
            let loaded = load()
            loadTimes.append(Self.millis(clock.now - start))
            // Freed after the clock stops: tearing a rule set down is not part of loading one.
            withExtendedLifetime(loaded) {}
            advance("load and compile")
        }
        progress("load+compile: \(String(format: "%.1f", Self.median(loadTimes))) ms")

        let start = clock.now
        await testSuite()
        let testSuiteMillis = Self.millis(clock.now - start)
        advance("offline test suite")
        progress("offline test suite: \(String(format: "%.0f", testSuiteMillis)) ms")

        let options = MatchOptions()
        var mismatches = 0
        for link in corpus
        where rules.naiveOpenings(for: link, options: options) != rules.openings(for: link, options: options) {
            mismatches += 1
        }
        advance("both engines on every link")
        // The two engines' passes are interleaved (compiled passes spread between the naive ones), so that a slow
        // spell of a shared machine falls on both rather than skewing the ratio.
        var naivePasses = Passes()
        var compiledPasses = Passes()
        for naivePass in 0..<naiveCount {
            naivePasses.measure(corpus) { _ = rules.naiveOpenings(for: $0, options: options) }
            advance("naive loop")
            while compiledPasses.count < (naivePass + 1) * compiledCount / naiveCount {
                compiledPasses.measure(corpus) { _ = rules.openings(for: $0, options: options) }
                advance("compiled resolver")
            }
        }
        let naive = naivePasses.timing
        let compiled = compiledPasses.timing
        progress("naive: \(String(format: "%.1f", naive.meanMicros)) µs/URL")
        progress("compiled: \(String(format: "%.2f", compiled.meanMicros)) µs/URL")
        return Report(
            urls: corpus.count,
            naive: naive,
            compiled: compiled,
            ratio: naive.meanMicros / max(compiled.meanMicros, 0.001),
            loadMillis: Self.median(loadTimes),
            testSuiteMillis: testSuiteMillis,
            mismatches: mismatches
        )
    }

    /// How selective the prefilter is on the corpus: the candidate actions it leaves per link (each confirmed by its
    /// regex), and the actions that match per link.
    package func prefilterSelectivity(of rules: RuleSet) -> (candidates: Double, matched: Double) {
        let count = Double(max(corpus.count, 1))
        let candidates = corpus.reduce(0) { $0 + rules.candidateActions(for: $1.text).count }
        let actionsOnly = MatchOptions(includeBrowsers: false, includePreviews: false)
        let matched = corpus.reduce(0) { total, link in
            total + Set(rules.openings(for: link, options: actionsOnly).map { $0.rule.tokens.prefix(2) }).count
        }
        return (Double(candidates) / count, Double(matched) / count)
    }

    /// The passes of one engine over a corpus (the cleaning benchmark measures with it too).
    package struct Passes {
        /// Whole-corpus time divided by its size, per pass (µs).
        var means: [Double] = []
        /// Every per-URL time of every pass (µs).
        var perURL: [Double] = []

        /// No passes yet.
        package init() {}

        /// How many passes were measured.
        package var count: Int { means.count }

        /// The figures of every pass so far.
        package var timing: Timing {
            let sorted = perURL.sorted()
            return Timing(
                meanMicros: ResolverBenchmark.median(means),
                medianMicros: ResolverBenchmark.percentile(sorted, 0.5),
                p99Micros: ResolverBenchmark.percentile(sorted, 0.99)
            )
        }

        /// One more pass of `body` over `corpus`, each link timed on its own.
        package mutating func measure(_ corpus: [Link], _ body: (Link) -> Void) {
            let clock = ContinuousClock()
            perURL.reserveCapacity(perURL.count + corpus.count)
            let start = clock.now
            for link in corpus {
                let linkStart = clock.now
                body(link)
                perURL.append(ResolverBenchmark.micros(clock.now - linkStart))
            }
            means.append(ResolverBenchmark.micros(clock.now - start) / Double(max(corpus.count, 1)))
        }
    }

    static func micros(_ duration: Duration) -> Double {
        duration / .microseconds(1)
    }

    package static func millis(_ duration: Duration) -> Double { micros(duration) / 1000 }

    package static func median(_ values: [Double]) -> Double { percentile(values.sorted(), 0.5) }

    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction + 0.5))]
    }
}
