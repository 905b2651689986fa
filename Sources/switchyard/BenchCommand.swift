import ArgumentParser
import BundledRules
import CleaningBenchmarks
import Foundation
import LinkCleaning
import LinkMatching
import LinkResolver
import LinkRules
import RuleTooling
import SwitchyardBenchmarks

/// `switchyard bench`: the compiled resolver against the naive regex loop, in one run on one corpus.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Time the compiled resolver against the naive NSRegularExpression loop on one corpus."
    )

    @OptionGroup var manifestOptions: ManifestOptions

    @Option(
        help: ArgumentHelp(
            "A file with one link per line (default: the manifest's test inputs plus generated links).",
            valueName: "file"
        ),
        completion: .file()
    )
    var corpus: String?

    @Option(help: "How many links to generate when no --corpus is given.")
    var generated = 20000

    @Option(help: "Repetitions of the corpus for the naive loop.")
    var naiveRepetitions = 3

    @Option(help: "Repetitions of the corpus for the compiled resolver.")
    var compiledRepetitions = 7

    @Flag(help: "Print one JSON object.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "A ClearURLs catalog (data.min.json): also time cleaning, compiled against the naive loop, on links made from it.",
            valueName: "path"
        ),
        completion: .file(extensions: ["json"])
    )
    var cleanRules: String?

    @Flag(help: "Time AASA decisions instead: a realistic file (budget 2 µs a decision) and a hostile one (1 ms).")
    var claims = false

    func validate() throws {
        try OptionRange.check(generated, in: 0...1_000_000, option: "--generated")
        try OptionRange.check(naiveRepetitions, in: 1...1000, option: "--naive-repetitions")
        try OptionRange.check(compiledRepetitions, in: 1...1000, option: "--compiled-repetitions")
    }

    func run() async throws {
        if claims { return try runClaims() }
        let output = CommandOutput.current
        let rules = try await manifestOptions.loadRules(network: nil)
        let links: [String]
        if let corpus {
            let text: String
            do {
                text = String(decoding: try UserFile.read(corpus), as: UTF8.self)
            } catch {
                throw CommandFailure(error, what: "corpus")
            }
            links = text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
        } else {
            links = LinkCorpus.make(for: rules, generated: generated)
        }
        let benchmark = ResolverBenchmark(corpus: links, repetitions: (naiveRepetitions, compiledRepetitions))
        let manifestURL = manifestOptions.manifest.map { URL(fileURLWithPath: $0) }
        if !json {
            let stats = rules.matcherStatistics
            output.printError(
                "matcher: \(stats.indexedActions, "action") indexed by literal, \(stats.alwaysRunActions) always confirmed; \(stats.trivialBrowsers, "browser") matched without a regex engine, \(stats.regexBrowsers) with ICU; \(stats.indexedPreviews, "preview") indexed; automaton \(stats.automatonStates, "state"), \(stats.automatonTableBytes / 1024) KiB"
            )
            let selectivity = benchmark.prefilterSelectivity(of: rules)
            output.printError(
                "prefilter: \(format(selectivity.candidates)) candidate actions per link, \(format(selectivity.matched)) matched"
            )
        }
        // On a terminal, one live progress line (as `test` draws); elsewhere each phase's result as a line of its own.
        let live = !json && output.errorIsTerminal ? LiveLine(output: output) : nil
        let bar = ProgressLine()
        let report = await benchmark.run(
            rules: rules,
            load: { manifestURL.map { try? RuleSet.load(contentsOf: $0) } ?? (try? RuleSet.bundled()) },
            testSuite: { _ = await RuleTestRunner(rules: rules).run() },
            progress: { line in if !json && live == nil { output.printError(line) } },
            step: { done, total, phase in
                live?.draw(bar.render(done: done, total: total, detail: phase), final: done == total)
            }
        )
        live?.finish()
        let cleaning = try cleaningReport()
        let guardCost = try await GuardBenchmark.measure()
        if json {
            try output.printJSON(BenchDocument(report: report, cleaning: cleaning, guardCost: guardCost), pretty: false)
            return
        }
        output.print(
            """
            urls:              \(report.urls)
            naive loop:        mean \(format(report.naive.meanMicros)) µs/URL, median \(format(report.naive.medianMicros)), p99 \(format(report.naive.p99Micros))
            compiled resolver: mean \(format(report.compiled.meanMicros)) µs/URL, median \(format(report.compiled.medianMicros)), p99 \(format(report.compiled.p99Micros))
            ratio:             \(String(format: "%.1f", report.ratio))× faster
            load + compile:    \(String(format: "%.1f", report.loadMillis)) ms
            offline tests:     \(String(format: "%.0f", report.testSuiteMillis)) ms
            mismatches:        \(report.mismatches)
            hostile guard:     \(format(guardCost.withShortcutsMillis)) ms/link with the shortcuts, \(format(guardCost.javaScriptCoreMillis)) in JavaScriptCore alone; RegExp('x/(a+)+b') on x/a{20}c (guard budget \(format(guardCost.budgetMillis)) ms; \(guardCost.sameAnswer ? "same answer" : "ANSWERS DIFFER"))
            """
        )
        if let cleaning {
            output.print(
                """
                cleaning urls:     \(cleaning.urls) (\(cleaning.changed) changed)
                cleaning naive:    mean \(format(cleaning.naive.meanMicros)) µs/URL, median \(format(cleaning.naive.medianMicros)), p99 \(format(cleaning.naive.p99Micros))
                cleaning compiled: mean \(format(cleaning.compiled.meanMicros)) µs/URL, median \(format(cleaning.compiled.medianMicros)), p99 \(format(cleaning.compiled.p99Micros))
                cleaning ratio:    \(String(format: "%.1f", cleaning.ratio))× faster
                catalog compile:   \(String(format: "%.1f", cleaning.compileMillis)) ms
                cleaning mismatches: \(cleaning.mismatches)
                """
            )
        }
        if report.mismatches > 0 || (cleaning?.mismatches ?? 0) > 0 || !guardCost.sameAnswer { throw ExitCode(1) }
    }

    /// Cleaning timed on links made from `--clean-rules`' catalog, or nil without it.
    private func cleaningReport() throws(CommandFailure) -> CleaningBenchmark.Report? {
        guard let cleanRules else { return nil }
        let data: Data
        do {
            data = try UserFile.read(cleanRules, maximumBytes: CleaningCatalogLoader.maximumBytes)
        } catch {
            throw CommandFailure(error, what: "cleaning catalog")
        }
        let catalog: CleaningCatalog
        do {
            catalog = try CleaningCatalog(data: data, file: cleanRules)
        } catch {
            for diagnostic in error.diagnostics { CommandOutput.current.printError(diagnostic.description) }
            throw CommandFailure(message: "\(cleanRules): error: the cleaning catalog cannot be used")
        }
        let benchmark = CleaningBenchmark(corpus: CleaningCorpus.make(for: catalog, count: generated))
        return benchmark.run(cleaner: LinkCleaner(catalog: catalog)) {
            (try? CleaningCatalog(data: data)).map(LinkCleaner.init(catalog:))
        }
    }

    private func format(_ value: Double) -> String { String(format: value < 10 ? "%.2f" : "%.1f", value) }
}

/// `bench --json`: the resolution figures, with the cleaning figures under `cleaning` when `--clean-rules` is given
/// and a hostile script guard's cost under `hostileGuard`.
private struct BenchDocument: Encodable {
    var report: ResolverBenchmark.Report
    var cleaning: CleaningBenchmark.Report?
    var guardCost: GuardBenchmark

    private enum CodingKeys: String, CodingKey {
        case cleaning
        case guardCost = "hostileGuard"
    }

    func encode(to encoder: any Encoder) throws {
        try report.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(cleaning, forKey: .cleaning)
        try container.encode(guardCost, forKey: .guardCost)
    }
}
