import AppChooser
import Foundation
import LinkCleaning
import LinkMatching
import LinkResolver
import LinkRules
import SwitchyardTestSupport
import Testing
import WebLinks

/// What an app that embeds `Resolver` gets with no CLI or server code: cleaning and remembered site choices through
/// the stages it passes in, and cache keys and cacheability derived from them.
@Suite struct StageEmbeddingTests {
    static let rules = RuleFixture.text(
        actions: #"""
            [{"regex": "^https://shop\\.example/item/(\\d+)$",
              "formats": [{"appId": "alpha", "format": "shop://$1"}, {"appId": "beta", "format": "beta://$1"}]}]
            """#
    )

    /// A resolver over the fixture rules with ClearURLs-style cleaning and a choices store in a temporary file.
    static func withResolver(_ body: (Resolver, ChoicesStore, URL) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stages-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let storeFile = directory.appendingPathComponent("choices.sqlite")
        let store = try ChoicesStore(path: storeFile.path)
        let resolver = Resolver(
            rules: try RuleSet.load(Self.rules, file: "rules.json"),
            engine: nil,
            fetcher: nil,
            stages: ResolverStages(
                cleaning: [try LinkCleaner(json: CleaningStageTests.catalog)],
                decisions: [store]
            ),
            identity: "fixture"
        )
        try await body(resolver, store, storeFile)
    }

    @Test func anEmbedderGetsCleaningAndItsRememberedChoice() async throws {
        try await Self.withResolver { resolver, store, _ in
            try store.rememberSite("shop.example", app: "beta")
            let outcome = await resolver.outcome(try Link("https://shop.example/item/7?utm_source=feed"))
            let resolution = outcome.resolution
            #expect(resolution.unwrapped == "https://shop.example/item/7")
            #expect(resolution.steps.map(\.kind) == [.clean])
            let beta = try #require(resolution.openings.first { $0.app?.identifier == "beta" })
            #expect(beta.preferred == OpeningPreference(by: .rememberedSite, reason: "shop.example"))
            #expect(resolution.openings.first { $0.app?.identifier == "alpha" }?.preferred == nil)
            #expect(outcome.cacheability == .unlimited)
        }
    }

    @Test func theCacheKeyNamesEveryStageAndChangesWithItsState() async throws {
        try await Self.withResolver { resolver, store, _ in
            let request = ResolveRequest()
            let before = resolver.cacheKey(for: "https://shop.example/item/7", request)
            #expect(before.parts.first == "rules:fixture")
            let stages = before.parts.filter { $0.hasPrefix("stage:") }
            #expect(stages.count == 2)
            #expect(stages[0].hasPrefix("stage:clearurls:"))
            #expect(stages[1].hasPrefix("stage:choices:"))
            #expect(resolver.cacheKey(for: "https://shop.example/item/7", request) == before)
            try store.rememberSite("shop.example", app: "beta")
            let after = resolver.cacheKey(for: "https://shop.example/item/7", request)
            #expect(after != before)
            #expect(
                after.parts.filter { !$0.hasPrefix("stage:choices:") }
                    == before.parts.filter {
                        !$0.hasPrefix("stage:choices:")
                    }
            )
            var other = request
            other.cleansLinks = false
            #expect(resolver.cacheKey(for: "https://shop.example/item/7", other) != after)
            let outcome = await resolver.outcome(try Link("https://shop.example/item/7"), request)
            #expect(outcome.cacheKey == after)
        }
    }

    @Test func aStoreThatCannotBeReadMakesTheAnswerUncacheable() async throws {
        try await Self.withResolver { resolver, _, file in
            try Data("garbage".utf8).write(to: file)
            let outcome = await resolver.outcome(try Link("https://shop.example/item/7"))
            #expect(!outcome.isReproducible)
            #expect(outcome.resolution.notices.map(\.code) == [ChoicesStore.choicesUnreadable])
            #expect(outcome.resolution.openings.count == 2)
        }
    }

    @Test func aRequestThatSaysNoCleaningIsNotCleaned() async throws {
        try await Self.withResolver { resolver, _, _ in
            var request = ResolveRequest()
            request.cleansLinks = false
            let resolution = try await resolver.resolve("https://shop.example/item/7?utm_source=feed", request)
            #expect(resolution.steps.isEmpty)
            #expect(resolution.openings.isEmpty)
        }
    }
}
