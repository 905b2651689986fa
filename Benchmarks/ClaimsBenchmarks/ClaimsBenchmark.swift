import DomainClaims
import SwitchyardBenchmarks
import WebLinks

/// Times AASA decisions: a compiled realistic file deciding each link of its corpus (the budget: 2 µs a decision),
/// and the hostile file (budget: 1 ms a decision); links are parsed before any clock starts.
package struct ClaimsBenchmark: Sendable {
    /// The figures of one run.
    package struct Report: Sendable, Codable, Equatable {
        /// Links decided per pass, realistic and hostile.
        package var realisticLinks: Int
        package var hostileLinks: Int
        /// Per decision.
        package var realistic: ResolverBenchmark.Timing
        package var hostile: ResolverBenchmark.Timing
        /// Reading and compiling each file, median of several (ms).
        package var realisticCompileMillis: Double
        package var hostileCompileMillis: Double
        /// Components in the hostile file.
        package var hostileComponents: Int
        /// The adversarial file (every component passes the cheap checks and runs its matcher): per decision, no
        /// budget (µs).
        package var adversarial: ResolverBenchmark.Timing
        /// Decisions of the realistic corpus by outcome (match, exclude, no_match).
        package var outcomes: [String: Int]
        /// Whether the mean decision (median of the passes) of each file is within its budget.
        package var withinBudget: Bool
    }

    /// The realistic budget per decision (µs).
    package static let realisticBudgetMicros = 2.0
    /// The hostile budget per decision (µs).
    package static let hostileBudgetMicros = 1000.0

    /// Passes over each corpus.
    package var repetitions: (realistic: Int, hostile: Int)
    /// Components in the hostile file.
    package var hostileComponents: Int

    /// A benchmark.
    package init(repetitions: (realistic: Int, hostile: Int) = (20, 15), hostileComponents: Int = 10_000) {
        self.repetitions = repetitions
        self.hostileComponents = hostileComponents
    }

    /// Runs it; nil when a built-in file does not read (a bug).
    package func run() -> Report? {
        let hostileText = ClaimsCorpus.hostile(count: hostileComponents)
        guard let realisticFile = try? AppSiteAssociation(bytes: Array(ClaimsCorpus.realistic.utf8)),
            let hostileFile = try? AppSiteAssociation(bytes: Array(hostileText.utf8))
        else { return nil }
        let realisticCompile = Self.compileTime(ClaimsCorpus.realistic)
        let hostileCompile = Self.compileTime(hostileText)
        let realisticLinks = ClaimsCorpus.realisticLinks.compactMap { try? Link($0) }
        let hostileLinks = ClaimsCorpus.hostileLinks.compactMap { try? Link($0) }
        var outcomes: [String: Int] = [:]
        for link in realisticLinks {
            outcomes[
                realisticFile.decision(for: ClaimsCorpus.app, link: link, domain: "example.com").outcome.rawValue,
                default: 0
            ] += 1
        }
        var realisticPasses = ResolverBenchmark.Passes()
        for _ in 0..<repetitions.realistic {
            realisticPasses.measure(realisticLinks) {
                _ = realisticFile.decision(for: ClaimsCorpus.app, link: $0, domain: "example.com")
            }
        }
        var hostilePasses = ResolverBenchmark.Passes()
        for _ in 0..<repetitions.hostile {
            hostilePasses.measure(hostileLinks) {
                _ = hostileFile.decision(for: ClaimsCorpus.app, link: $0, domain: "example.com")
            }
        }
        let realistic = realisticPasses.timing
        let hostile = hostilePasses.timing
        var adversarialPasses = ResolverBenchmark.Passes()
        if let file = try? AppSiteAssociation(bytes: Array(ClaimsCorpus.adversarial(count: hostileComponents).utf8)),
            let link = try? Link(ClaimsCorpus.adversarialLink)
        {
            for _ in 0..<repetitions.hostile {
                adversarialPasses.measure([link]) {
                    _ = file.decision(for: ClaimsCorpus.app, link: $0, domain: "example.com")
                }
            }
        }
        return Report(
            realisticLinks: realisticLinks.count,
            hostileLinks: hostileLinks.count,
            realistic: realistic,
            hostile: hostile,
            realisticCompileMillis: realisticCompile,
            hostileCompileMillis: hostileCompile,
            hostileComponents: hostileComponents,
            adversarial: adversarialPasses.timing,
            outcomes: outcomes,
            withinBudget: realistic.meanMicros <= Self.realisticBudgetMicros
                && hostile.meanMicros <= Self.hostileBudgetMicros
        )
    }

    private static func compileTime(_ text: String) -> Double {
        let clock = ContinuousClock()
        var times: [Double] = []
        for _ in 0..<3 {
            let start = clock.now
            let file = try? AppSiteAssociation(bytes: Array(text.utf8))
            times.append(ResolverBenchmark.millis(clock.now - start))
            withExtendedLifetime(file) {}
        }
        return ResolverBenchmark.median(times)
    }
}
