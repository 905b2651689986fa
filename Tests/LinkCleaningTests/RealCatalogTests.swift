import CleaningBenchmarks
import Foundation
import LinkCleaning
import LinkMatching
import LinkRules
import SwitchyardBenchmarks
import SwitchyardTestSupport
import Testing
import WebLinks

/// ClearURLs' real catalog from `../shared/data/clearurls`, read at test time: it loads, its hash verifies, and every
/// provider is exercised by links generated from its own `urlPattern`.
@Suite(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
struct RealCatalogTests {
    static let loaded: (data: Data, catalog: CleaningCatalog)? = {
        guard let data = try? SharedData.data("clearurls/data.min.json"),
            let catalog = try? CleaningCatalog(data: data, file: "data.min.json")
        else { return nil }
        return (data, catalog)
    }()

    func catalog() throws -> (data: Data, catalog: CleaningCatalog) {
        try #require(Self.loaded, "clearurls/data.min.json could not be read or decoded")
    }

    @Test func loadsEveryProviderAndRule() throws {
        let catalog = try catalog().catalog
        #expect(catalog.providers.count == 205)
        #expect(catalog.providers.reduce(0) { $0 + $1.rules.count } == 730)
        #expect(catalog.providers.reduce(0) { $0 + $1.redirections.count } == 64)
        #expect(catalog.providers.reduce(0) { $0 + $1.exceptions.count } == 79)
        #expect(catalog.providers.reduce(0) { $0 + $1.rawRules.count } == 4)
        #expect(catalog.providers.reduce(0) { $0 + $1.referralMarketing.count } == 9)
        #expect(catalog.providers.count(where: \.completeProvider) == 10)
        // Every regex of the shared copy translates and compiles: nothing is refused, nothing else reported.
        #expect(catalog.refusedPatterns.map(\.pointer) == [])
        #expect(catalog.diagnostics == [])
    }

    @Test func theHashVerifies() throws {
        let data = try catalog().data
        let published = String(decoding: try SharedData.data("clearurls/rules.min.hash"), as: UTF8.self)
        try CleaningCatalog.verify(data: data, sha256Hex: published)
        var altered = data
        altered.append(0x20)
        #expect(throws: CleaningError.self) { try CleaningCatalog.verify(data: altered, sha256Hex: published) }
    }

    @Test func everyProviderIsExercisedByALinkMadeFromItsPattern() throws {
        let catalog = try catalog().catalog
        let cleaner = LinkCleaner(catalog: catalog)
        var exercised: [String] = []
        var fieldsRemoved = 0
        var withFieldRules = 0
        var missing: [String] = []
        for (position, provider) in catalog.providers.enumerated() {
            guard let link = CleaningCorpus.link(for: provider) else {
                missing.append(provider.name)
                continue
            }
            #expect(provider.urlPattern.regex.matches(link.text), "\(provider.name): \(link)")
            let plain = cleaner.clean(link)
            #expect(plain == cleaner.naiveClean(link), "\(provider.name): \(link)")
            if provider.completeProvider {
                // This provider, or a complete one before it that the link also matches, blocks it.
                let blocker = try #require(plain.blockedBy, "\(provider.name): \(link) is not blocked")
                let blockerIndex = try #require(catalog.providers.firstIndex { $0.name == blocker })
                #expect(blockerIndex <= position)
            }
            exercised.append(provider.name)
            // A tracking field named by the provider's first field rule, generated from that rule, is removed.
            guard let rule = provider.rules.first else { continue }
            withFieldRules += 1
            let name = try #require(CleaningCorpus.fieldName(for: rule), "\(provider.name): no field name for \(rule)")
            let tracked = try Link(CleaningCorpus.appending(["keep=1", "\(name)=tracking"], to: link))
            let result = cleaner.clean(tracked)
            #expect(result == cleaner.naiveClean(tracked))
            if result.blockedBy != nil || result.steps.contains(where: { $0.action == .unwrapped }) { continue }
            let removal = result.steps.first { $0.text == "\(name)=tracking" }
            #expect(removal != nil, "\(provider.name): \(tracked) → \(result.link)")
            #expect(result.link.contains("keep=1"))
            #expect(!result.link.contains("\(name)=tracking"))
            if let removal {
                // Removed by this provider, or by one before it with a rule for the same name.
                let remover = try #require(catalog.providers.firstIndex { $0.name == removal.rule.provider })
                #expect(remover <= position)
                fieldsRemoved += 1
            }
        }
        #expect(missing == [])
        #expect(exercised.count == 205)
        #expect(withFieldRules == catalog.providers.count { !$0.rules.isEmpty })
        #expect(fieldsRemoved == withFieldRules)
    }

    @Test func compiledAndNaiveAgreeOnAGeneratedCorpus() throws {
        let catalog = try catalog().catalog
        let cleaner = LinkCleaner(catalog: catalog)
        let corpus = CleaningCorpus.make(for: catalog, count: 700).compactMap { try? Link($0) }
        #expect(corpus.count >= 600)
        var changed = 0
        for link in corpus {
            for options in [CleaningOptions(), CleaningOptions(allowReferralMarketing: true)] {
                let compiled = cleaner.clean(link, options: options)
                #expect(compiled == cleaner.naiveClean(link, options: options), "\(link)")
                if compiled.changed { changed += 1 }
            }
        }
        #expect(changed > corpus.count / 2)
    }
}
