import Foundation
import LinkCleaning
import SwitchyardBenchmarks
import WebLinks

/// Measures cleaning: the compiled cleaner against the naive loop (``LinkCleaner/naiveClean(_:options:)``) on one
/// corpus, with the outputs compared link by link.
package struct CleaningBenchmark: Sendable {
    /// The figures of one run.
    package struct Report: Sendable, Codable, Equatable {
        package var urls: Int
        package var naive: ResolverBenchmark.Timing
        package var compiled: ResolverBenchmark.Timing
        /// naive.meanMicros / compiled.meanMicros.
        package var ratio: Double
        /// Decoding and compiling the catalog, median of several (ms).
        package var compileMillis: Double
        /// Links the cleaner changed.
        package var changed: Int
        /// Links whose results differ between the two (must be 0).
        package var mismatches: Int
    }

    /// The links (normalised before any clock starts).
    package var corpus: [Link]
    /// Repetitions of the corpus per engine.
    package var repetitions: (naive: Int, compiled: Int)

    /// A benchmark over the texts of `corpus` that the link normaliser accepts.
    package init(corpus: [String], repetitions: (naive: Int, compiled: Int) = (2, 5)) {
        self.corpus = corpus.compactMap { try? Link($0) }
        self.repetitions = repetitions
    }

    /// Runs it: `compile` builds the cleaner again (timed 5 times).
    package func run(cleaner: LinkCleaner, compile: () -> LinkCleaner?) -> Report {
        let clock = ContinuousClock()
        var compileTimes: [Double] = []
        for _ in 0..<5 {
            let start = clock.now
            let compiled = compile()
            compileTimes.append(ResolverBenchmark.millis(clock.now - start))
            withExtendedLifetime(compiled) {}
        }
        var mismatches = 0
        var changed = 0
        for link in corpus {
            let compiled = cleaner.clean(link)
            if compiled != cleaner.naiveClean(link) { mismatches += 1 }
            if compiled.changed { changed += 1 }
        }
        let naive = timing(repetitions.naive) { _ = cleaner.naiveClean($0) }
        let compiled = timing(repetitions.compiled) { _ = cleaner.clean($0) }
        return Report(
            urls: corpus.count,
            naive: naive,
            compiled: compiled,
            ratio: naive.meanMicros / max(compiled.meanMicros, 0.001),
            compileMillis: ResolverBenchmark.median(compileTimes),
            changed: changed,
            mismatches: mismatches
        )
    }

    private func timing(_ passes: Int, _ body: (Link) -> Void) -> ResolverBenchmark.Timing {
        var measured = ResolverBenchmark.Passes()
        for _ in 0..<max(passes, 1) { measured.measure(corpus, body) }
        return measured.timing
    }
}
