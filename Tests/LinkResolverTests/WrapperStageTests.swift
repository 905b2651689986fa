import BundledRules
import Foundation
import LinkFetching
import LinkFetchingHTTP
import LinkMatching
import LinkResolver
import LinkRules
import SwitchyardTestSupport
import Synchronization
import Testing
import WebLinks

/// The resolver decodes link wrappers offline before anything else sees the link: every kind resolves to the inner
/// link's openings with no network request, nested ones too; cleaning, redirect rules and actions see the inner link;
/// browsers open the wrapped link when asked; a malformed or opaque wrapper is said so.
@Suite struct WrapperStageTests {
    static func resolver(
        _ rules: RuleSet? = nil,
        fetcher: (any LinkFetching)? = nil,
        stages: ResolverStages = ResolverStages()
    ) throws -> Resolver {
        Resolver(rules: try rules ?? RuleSet.bundled(), engine: nil, fetcher: fetcher, stages: stages)
    }

    /// A fetcher that counts the requests it is asked and refuses them.
    final class CountingFetcher: LinkFetching {
        let asked = Mutex<[String]>([])

        func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
            asked.withLock { $0.append(request.url.text) }
            throw FetchError(.offline, url: request.url.text, message: "no network in this test")
        }
    }

    @Test(arguments: WrappedLinks.cases)
    func everyWrapperResolvesOfflineToTheInnerLinksOpenings(_ id: String, _ name: String, _ link: String) async throws {
        let resolver = try Self.resolver()
        let resolution = try await resolver.resolve(link)
        let direct = try await resolver.resolve(WrappedLinks.inner)
        #expect(resolution.unwrapped == WrappedLinks.inner)
        #expect(resolution.openings == direct.openings)
        #expect(resolution.openings.first { $0.kind == .action }?.url == WrappedLinks.innerAppURL)
        #expect(resolution.steps.count == 1)
        let step = try #require(resolution.steps.first)
        #expect(step.kind == .wrapper && step.rule == name && step.layer == nil && step.location == nil)
        #expect(step.from == (try Link(link)).text && step.to == WrappedLinks.inner)
        #expect(resolution.notices.isEmpty)
    }

    @Test(arguments: WrappedLinks.cases)
    func onlineAWrappedLinkCostsNoRequest(_ id: String, _ name: String, _ link: String) async throws {
        let fetcher = CountingFetcher()
        let resolution = try await Self.resolver(fetcher: fetcher).resolve(link)
        #expect(resolution.unwrapped == WrappedLinks.inner)
        #expect(fetcher.asked.withLock { $0 } == [])
    }

    @Test func nestedWrappersAreDecodedToTheInnerLink() async throws {
        let resolution = try await Self.resolver().resolve(WrappedLinks.nested)
        #expect(resolution.unwrapped == WrappedLinks.inner)
        #expect(
            resolution.steps.map(\.rule) == [
                "Trend Micro Email Security", "Microsoft Defender Safe Links", "Proofpoint URL Defense v3",
            ]
        )
        #expect(resolution.openings.first?.url == WrappedLinks.innerAppURL)
    }

    @Test(arguments: WrappedLinks.lookAlikes)
    func aLookAlikeHostIsNoWrapper(_ link: String) async throws {
        let resolution = try await Self.resolver().resolve(link)
        #expect(resolution.unwrapped == (try Link(link)).text)
        #expect(!resolution.steps.contains { $0.kind == .wrapper })
        #expect(!resolution.openings.contains { $0.kind == .action })
    }

    @Test func aMalformedWrapperIsLeftAsItIsWithANotice() async throws {
        let resolution = try await Self.resolver().resolve(WrappedLinks.malformed)
        #expect(resolution.unwrapped == WrappedLinks.malformed)
        let step = try #require(resolution.steps.first)
        #expect(step.kind == .wrapper && step.to == nil && step.rule == "Proofpoint URL Defense v3")
        #expect(step.refused == "a marker stands for a byte where its data has none left")
        // Offline, the link left as it is was not asked where it leads either (a notice of its own).
        #expect(resolution.notices.map(\.code) == [RuleSet.malformedWrapper, Resolver.offline])
        #expect(resolution.notices.first?.message.contains("Proofpoint URL Defense v3") == true)
    }

    /// Offline, an opaque wrapper is said to be opaque; online, it is followed as a short link by the HTTP
    /// unwrapping (here the network refuses it: the hop is a refused step, and no notice says it is opaque).
    @Test func anOpaqueWrapperIsFollowedOnlineAndSaidToBeOpaqueOffline() async throws {
        let offline = try await Self.resolver().resolve(WrappedLinks.mimecast)
        #expect(offline.unwrapped == WrappedLinks.mimecast)
        #expect(offline.steps.isEmpty)
        #expect(offline.notices.map(\.code) == [RuleSet.opaqueWrapper])
        #expect(offline.notices.first?.message.contains("Mimecast URL Protect link, which only its service") == true)
        let fetcher = CountingFetcher()
        let online = try await Self.resolver(fetcher: fetcher).resolve(WrappedLinks.mimecast)
        #expect(fetcher.asked.withLock { $0 } == [WrappedLinks.mimecast])
        #expect(online.notices.isEmpty)
        #expect(online.steps.map(\.kind) == [.httpRedirect])
        #expect(online.steps.first?.refused?.contains("no network in this test") == true)
    }

    @Test func browsersOpenTheWrappedLinkWhenAsked() async throws {
        let link = try #require(WrappedLinks.cases.first).link
        let wrapped = try Link(link).text
        var request = ResolveRequest()
        request.opensWrapped = true
        let resolution = try await Self.resolver().resolve(link, request)
        #expect(resolution.unwrapped == WrappedLinks.inner)
        #expect(resolution.openings.first { $0.kind == .action }?.url == WrappedLinks.innerAppURL)
        let safari = try #require(resolution.openings.first { $0.app?.identifier == "safari" })
        #expect(safari.url == wrapped)
        let chrome = try #require(resolution.openings.first { $0.app?.identifier == "chrome" })
        #expect(chrome.url == "googlechromes://" + wrapped.dropFirst("https://".count))
        // By default, and when the request says false over a layer that says true, browsers open the inner link.
        let inner = try await Self.resolver().resolve(link)
        #expect(inner.openings.first { $0.app?.identifier == "safari" }?.url == WrappedLinks.inner)
        let layered = try RuleSet.bundled().applying(layer: #"{"switchyardUserLayer": 1, "openWrapped": true}"#)
        let byLayer = try await Self.resolver(layered).resolve(link)
        #expect(byLayer.openings.first { $0.app?.identifier == "safari" }?.url == wrapped)
        request.opensWrapped = false
        let overridden = try await Self.resolver(layered).resolve(link, request)
        #expect(overridden.openings.first { $0.app?.identifier == "safari" }?.url == WrappedLinks.inner)
    }

    @Test func theTraceSaysAppOpeningsBypassTheGateway() async throws {
        var request = ResolveRequest()
        request.trace = true
        let resolution = try await Self.resolver().resolve(WrappedLinks.nested, request)
        let gateway = try #require(resolution.trace?.gateway)
        #expect(gateway.wrapped == (try Link(WrappedLinks.nested)).text)
        #expect(gateway.wrappers.count == 3)
        #expect(!gateway.browsersOpenWrapped)
        let action = try #require(resolution.openings.first { $0.kind == .action })
        #expect(gateway.bypassed == ["action x \(action.rule)"])
        let plain = try await Self.resolver().resolve(WrappedLinks.inner, request)
        #expect(plain.trace?.gateway == nil)
    }

    /// A cleaning stage that records the links it is given.
    final class RecordingCleaner: LinkCleaningStage {
        let seen = Mutex<[String]>([])
        var identity: String { "recording" }

        func clean(_ link: Link, _ context: CleaningContext) -> CleaningOutcome {
            seen.withLock { $0.append(link.text) }
            return .unchanged
        }
    }

    @Test func cleaningAndTheRedirectRulesSeeTheInnerLink() async throws {
        let cleaner = RecordingCleaner()
        let rules = try RuleFixture.rules(
            actions:
                #"[{"regex": "^https://a\\.example/(\\w+)$", "formats": [{"appId": "alpha", "format": "alpha://$1"}]}]"#,
            redirects: #"{"^https://go\\.example/": {"param": "to"}}"#
        )
        let resolver = try Self.resolver(rules, stages: ResolverStages(cleaning: [cleaner]))
        // A wrapper around a redirect rule's link around a wrapper: decoded, the rule applied, decoded again.
        let inner = "https://slack-redir.net/link?url=https%3A%2F%2Fa.example%2Fitem"
        let link =
            "https://l.facebook.com/l.php?u="
            + WrappedLinks.encode("https://go.example/?to=" + WrappedLinks.encode(inner))
        let resolution = try await resolver.resolve(link)
        #expect(resolution.unwrapped == "https://a.example/item")
        #expect(resolution.steps.map(\.kind) == [.wrapper, .redirectRule, .wrapper])
        #expect(resolution.steps.map(\.rule) == ["Facebook link shim", "^https://go\\.example/", "Slack redirect"])
        #expect(resolution.openings.compactMap(\.url) == ["alpha://item"])
        #expect(
            cleaner.seen.withLock { $0 } == [
                "https://go.example/?to=" + WrappedLinks.encode(inner), "https://a.example/item",
            ]
        )
    }

    @Test func theUserLayerAddsWrappersAndSwitchesBuiltInOnesOff() async throws {
        let layer = #"""
            {"switchyardUserLayer": 1,
             "wrappers": [{"id": "corp", "name": "Corp link check", "hosts": ["check.corp.example"], "paths": ["/v1/check"],
                           "decode": "query", "parameters": ["target"]}],
             "disableWrappers": ["slack"]}
            """#
        let rules = try RuleSet.bundled().applying(layer: layer)
        let corp = try await Self.resolver(rules).resolve(
            "https://check.corp.example/v1/check?target=\(WrappedLinks.encodedInner)&sig=1"
        )
        #expect(corp.unwrapped == WrappedLinks.inner)
        let step = try #require(corp.steps.first)
        #expect(step.rule == "Corp link check" && step.layer == .user && step.location == "/wrappers/0")
        #expect(step.description.hasPrefix("wrapper (user layer) /wrappers/0 Corp link check: "))
        let slack = try #require(WrappedLinks.cases.first { $0.id == "slack" }).link
        let off = try await Self.resolver(rules).resolve(slack)
        #expect(off.unwrapped == (try Link(slack)).text)
        #expect(off.steps.isEmpty)
    }

    /// A short link whose server redirects to a wrapped link: the link the hop leads to is decoded offline, and its
    /// inner link is not asked for.
    @Test func anHTTPRedirectToAWrappedLinkIsDecoded() async throws {
        let wrapped = try #require(WrappedLinks.cases.first).link
        let server = try await LoopbackHTTPServer.start { request in
            request.path == "/short" ? .redirect(to: wrapped, status: 301) : .text("not found", status: 404)
        }
        defer { Task { await server.stop() } }
        let fetcher = LiveFetcher(policy: NetworkPolicy(allowPrivateAddresses: true))
        let resolution = try await Self.resolver(fetcher: fetcher).resolve(server.url("/short"))
        #expect(resolution.unwrapped == WrappedLinks.inner)
        #expect(resolution.steps.map(\.kind) == [.httpRedirect, .wrapper])
        #expect(resolution.openings.first?.url == WrappedLinks.innerAppURL)
        #expect(server.requestCount == 1)
    }
}
