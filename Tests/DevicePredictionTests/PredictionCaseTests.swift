import DevicePrediction
import DomainClaims
import SwitchyardTestSupport
import Testing
import WebLinks

/// The project's prediction cases through the decision itself: the device read from the request, the link, the files
/// given; and the reasons a few of them give.
@Suite struct PredictionCaseTests {
    /// The prediction of a case's request, as the protocol makes it.
    static func predict(_ testCase: PredictionCase) async throws -> Prediction {
        let request = try JSONReader().parse(testCase.request)
        let device = try Device(json: request)
        let link = try TappedLink(testCase.link)
        let files = try GivenDomainFiles(json: request["files"])
        return await DevicePredictor.predict(link, on: device, reading: files)
    }

    @Test(arguments: PredictionCases.all)
    func predictsWhatTheTapOpens(_ testCase: PredictionCase) async throws {
        let prediction = try await Self.predict(testCase)
        #expect(prediction.outcome.text == testCase.opens, "\(prediction.reasons.map(\.text))")
        #expect(prediction.candidates == testCase.candidates, "\(prediction.reasons.map(\.text))")
        #expect(prediction.reasons.last?.rule == "opens")
    }

    @Test func theReasonsNameEachRuleAndWhereItsFactIs() async throws {
        let testCase = try #require(PredictionCases.all.first { $0.name.contains("verified outranks selected, even") })
        let prediction = try await Self.predict(testCase)
        let rules = prediction.reasons.map(\.rule)
        #expect(rules == ["filter", "filter", "browser", "verified", "selected", "outranks", "opens"], "\(rules)")
        #expect(prediction.reasons[0].pointer == "/apps/0/filters/0")
        #expect(prediction.reasons[3].pointer == "/apps/0/verified")
        #expect(
            prediction.reasons.last?.text
                == "com.a is verified for a.example: it opens the link directly, with no chooser"
        )
    }

    @Test(arguments: [
        (
            "a filter without DEFAULT takes no link", "no-filter",
            "com.a: no intent filter takes the link: /apps/0/filters/0: it lacks the category DEFAULT"
        ),
        ("a filter without VIEW takes no link", "no-filter", "/apps/0/filters/0: it lacks the action VIEW"),
        ("a filter for another host takes no link", "no-filter", "none of its hosts (c.example) matches a.example"),
        (
            "a filter's path prefix leaves other paths to the browser", "no-filter",
            "none of its paths (pathPrefix /shop/) matches /help"
        ),
        (
            "the switch off: a verified app is not approved", "switch-off",
            "com.a: its \"Open supported links\" switch is off"
        ),
        (
            "a host that is not a domain name goes to the chooser", "invalid-host",
            "localhost is not a valid domain name"
        ),
        (
            "a verified wildcard never covers a longer name", "not-approved",
            "com.a is neither verified nor selected for badb.example"
        ),
        (
            "a file served for another domain claims nothing here", "other-domain-file",
            "the file was served for b.example, not for the link's host a.example"
        ),
        (
            "the user sent the domain to Safari before", "open-in-safari",
            "the user chose \"Open in Safari\" for a.example before"
        ),
    ])
    func theReasonsSayWhatDecided(_ name: String, _ rule: String, _ text: String) async throws {
        let testCase = try #require(PredictionCases.all.first { $0.name.contains(name) }, "\(name)")
        let reasons = try await Self.predict(testCase).reasons
        #expect(
            reasons.contains { $0.rule == rule && $0.text.contains(text) },
            "\(reasons.map { "[\($0.rule)] \($0.text)" })"
        )
    }

    @Test func aDerivedVerificationSaysWhichFileAndStatement() async throws {
        let testCase = try #require(
            PredictionCases.all.first { $0.name.hasSuffix("the domain's file links the app: it opens the link") }
        )
        let prediction = try await Self.predict(testCase)
        let verified = try #require(prediction.reasons.first { $0.rule == "verified" })
        #expect(verified.text.contains("(https://a.example/.well-known/assetlinks.json at /0)"), "\(verified.text)")
        let refused = try #require(PredictionCases.all.first { $0.name.hasSuffix("another certificate is not linked") })
        let reasons = try await Self.predict(refused).reasons
        #expect(
            reasons.contains {
                $0.rule == "not-verified" && $0.text.contains("does not link com.a with its certificate")
            }
        )
    }

    @Test func severalClaimedAppsAreSaidToBeTheSystemsChoice() async throws {
        let testCase = try #require(
            PredictionCases.all.first { $0.name.contains("several claimed apps: each is named") }
        )
        let prediction = try await Self.predict(testCase)
        let reason = try #require(prediction.reasons.first { $0.rule == "several-claimed" })
        #expect(reason.text.contains("which one is the system's choice"))
    }

    @Test func aMissingFileIsReadThroughTheSource() async throws {
        struct Site: DomainFileReading {
            func statementLists(of site: AssetSite) async -> AssetStatementLists {
                await GivenDomainFiles([:]).statementLists(of: site)
            }
            func association(for link: Link) async -> (file: AppSiteAssociation?, source: String) {
                (
                    try? AppSiteAssociation(bytes: Array(PredictionCases.aasa().utf8)),
                    "https://a.example/.well-known/apple-app-site-association"
                )
            }
        }
        let device = try Device(bytes: Array(#"{"platform":"ios","apps":[{"appId":"ABCDE12345.com.a"}]}"#.utf8))
        let link = try TappedLink("https://a.example/buy/1")
        #expect(PredictionEvidence.needsReading(for: link, on: device))
        let read = await DevicePredictor.predict(link, on: device, reading: Site())
        #expect(read.outcome == .app("ABCDE12345.com.a"))
        let offline = await DevicePredictor.predict(link, on: device, reading: nil)
        #expect(offline.outcome == .safari)
        #expect(offline.reasons.contains { $0.rule == "no-file" && $0.text.contains("none was read") })
    }
}
