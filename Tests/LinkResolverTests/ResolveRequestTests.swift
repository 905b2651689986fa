import Foundation
import HTTPTypes
import LinkMatching
import LinkResolver
import LinkRules
import Testing

/// One request value for every front end: every field reaches the canonical encoding (and so every cache key), the
/// encoding round-trips, and text fields (query string, CLI) are read and refused the same way.
@Suite struct ResolveRequestTests {
    /// Where each field lives in the value (a stored property path, as `Mirror` spells it).
    static let paths: [ResolveRequest.Field: String] = [
        .installed: "match.installed", .platform: "match.platform", .source: "match.sourceApp",
        .headers: "match.headers", .browsers: "match.includeBrowsers", .previews: "match.includePreviews",
        .regexTimeLimit: "match.budget.perRegex", .regexTimeShare: "match.budget.perResolution",
        .scripts: "runsScripts", .timeout: "timeLimit", .trace: "trace", .maximumLinkLength: "maximumLinkLength",
        .clean: "cleansLinks", .referralMarketing: "allowsReferralMarketing", .claims: "includesClaims",
        .openWrapped: "match.opensWrapped", .followPages: "followsPages", .refreshDelay: "maximumRefreshDelay",
    ]

    /// A change of each field.
    static let changes: [ResolveRequest.Field: @Sendable (inout ResolveRequest) -> Void] = [
        .installed: { $0.installed = InstalledApps(list: "twitter") },
        .platform: { $0.platform = .pad },
        .source: { $0.sourceApp = "com.tinyspeck.chatlyio" },
        .headers: { $0.headers = [.contentType: "text/html"] },
        .browsers: { $0.includeBrowsers = false },
        .previews: { $0.includePreviews = false },
        .regexTimeLimit: { $0.budget.perRegex = .milliseconds(10) },
        .regexTimeShare: { $0.budget.perResolution = .milliseconds(100) },
        .scripts: { $0.runsScripts = false },
        .timeout: { $0.timeLimit = .seconds(2) },
        .trace: { $0.trace = true },
        .maximumLinkLength: { $0.maximumLinkLength = 100 },
        .clean: { $0.cleansLinks = false },
        .referralMarketing: { $0.allowsReferralMarketing = true },
        .claims: { $0.includesClaims = false },
        .openWrapped: { $0.opensWrapped = true },
        .followPages: { $0.followsPages = true },
        .refreshDelay: { $0.maximumRefreshDelay = 30 },
    ]

    /// The stored properties of a value, through the option structs it nests, as dotted paths.
    static func storedPaths(of value: Any, prefix: String = "") -> [String] {
        Mirror(reflecting: value).children.flatMap { child -> [String] in
            let path = prefix + (child.label ?? "?")
            if child.value is MatchOptions || child.value is MatchBudget {
                return storedPaths(of: child.value, prefix: path + ".")
            }
            return [path]
        }
    }

    /// A stored property added to the request (or to its matcher options) without a field would never reach a cache
    /// key: this fails until the field is added to `ResolveRequest.Field` and its encoding.
    @Test func everyStoredPropertyIsAField() {
        #expect(Set(Self.storedPaths(of: ResolveRequest())) == Set(Self.paths.values))
        #expect(Set(Self.paths.keys) == Set(ResolveRequest.Field.allCases))
        #expect(Set(Self.changes.keys) == Set(ResolveRequest.Field.allCases))
    }

    @Test(arguments: ResolveRequest.Field.allCases)
    func eachFieldChangesTheCanonicalEncoding(field: ResolveRequest.Field) throws {
        var changed = ResolveRequest()
        let change = try #require(Self.changes[field])
        change(&changed)
        #expect(changed.canonicalEncoding != ResolveRequest().canonicalEncoding)
        #expect(changed.canonicalEncoding.contains("\"\(field.stringValue)\""))
    }

    @Test func theEncodingIsCanonicalAndRoundTrips() throws {
        var request = ResolveRequest()
        for change in Self.changes.values { change(&request) }
        request.installed = InstalledApps(list: "youtube, Twitter:, vnd.youtube")
        let decoded = try JSONDecoder().decode(ResolveRequest.self, from: Data(request.canonicalEncoding.utf8))
        #expect(decoded == request)
        var reordered = request
        reordered.installed = InstalledApps(list: "vnd.youtube,twitter,youtube")
        #expect(reordered.canonicalEncoding == request.canonicalEncoding)
        #expect(request.canonicalEncoding.contains(#""installed":["twitter","vnd.youtube","youtube"]"#))
    }

    @Test func textFieldsReadAsTheQueryStringGivesThem() throws {
        let request = try ResolveRequest(fields: [
            .installed: "twitter, youtube", .platform: "PAD", .source: "com.tinyspeck.chatlyio", .clean: "false",
            .timeout: "2.5", .scripts: "false", .referralMarketing: "true",
        ])
        #expect(request.installed == InstalledApps(list: "twitter,youtube"))
        #expect(request.platform == .pad)
        #expect(request.sourceApp == "com.tinyspeck.chatlyio")
        #expect(!request.cleansLinks && !request.runsScripts && request.allowsReferralMarketing)
        #expect(request.timeLimit == .milliseconds(2500))
    }

    /// `openWrapped` is said or not: a request that does not say it (the user layer decides) encodes as it always did,
    /// so its cache keys are those of before the field.
    @Test func openWrappedIsReadFromTextAndJSONAndLeftOutWhenNotSaid() throws {
        #expect(ResolveRequest().opensWrapped == nil)
        #expect(!ResolveRequest().canonicalEncoding.contains("openWrapped"))
        #expect(try ResolveRequest(fields: [.openWrapped: "true"]).opensWrapped == true)
        #expect(try ResolveRequest(fields: [.openWrapped: "false"]).opensWrapped == false)
        let body = try JSONDecoder().decode(ResolveRequest.self, from: Data(#"{"openWrapped": true}"#.utf8))
        #expect(body.opensWrapped == true)
        #expect(body.canonicalEncoding.contains(#""openWrapped":true"#))
    }

    @Test func decodingStartsFromTheCallersDefaults() throws {
        let defaults = ResolveRequest(timeLimit: .seconds(5), maximumLinkLength: 500)
        let request = try ResolveRequest(fields: [.platform: "phone"], defaults: defaults)
        #expect(request.timeLimit == .seconds(5))
        #expect(request.maximumLinkLength == 500)
        #expect(request.platform == .phone)
    }

    @Test(arguments: [
        (ResolveRequest.Field.platform, "watch", "E_PLATFORM", #"platform takes phone or pad, not "watch""#),
        (.clean, "yes", "E_CLEAN", #"clean takes true or false, not "yes""#),
        (.timeout, "0", "E_TIMEOUT", #"timeout takes seconds, at least 0.001 and at most 600, not "0""#),
        (.timeout, "601", "E_TIMEOUT", #"timeout takes seconds, at least 0.001 and at most 600, not "601""#),
        (.timeout, "soon", "E_TIMEOUT", #"timeout takes a number, not "soon""#),
        (.source, "two words", "E_SOURCE_APP", "source takes the bundle identifier"),
        (.maximumLinkLength, "1.5", "E_MAXIMUM_LINK_LENGTH", "maximumLinkLength takes a whole number from 1"),
        (.openWrapped, "yes", "E_OPEN_WRAPPED", #"openWrapped takes true or false, not "yes""#),
    ])
    func aValueThatDoesNotFitNamesItsField(field: ResolveRequest.Field, value: String, code: String, message: String) {
        #expect {
            try ResolveRequest(fields: [field: value])
        } throws: { error in
            guard let error = error as? ResolveRequestError else { return false }
            return error.field == field && error.code == code && error.description.hasPrefix(message)
        }
    }

    @Test func aJSONFieldOfTheWrongTypeIsADecodingErrorAtItsPath() {
        #expect {
            try JSONDecoder().decode(ResolveRequest.self, from: Data(#"{"installed": "a,b"}"#.utf8))
        } throws: { error in
            guard case .typeMismatch(_, let context) = error as? DecodingError else { return false }
            return context.codingPath.map(\.stringValue) == ["installed"]
        }
    }

    /// A patch made of typed values (the CLI's), one decoded from text (a query string) and one decoded from JSON (a
    /// batch body) give the same request, and a typed value out of range is refused as its text would be.
    @Test func everyFrontEndsPatchGivesTheSameRequest() throws {
        var typed = ResolveRequest.Patch()
        typed.installed = InstalledApps(["twitter", "spotify"])
        typed.platform = .pad
        typed.timeout = 2.5
        typed.clean = false
        typed.refreshDelay = 30
        let text = try ResolveRequest.Patch(text: [
            .installed: "twitter,spotify", .platform: "PAD", .timeout: "2.5", .clean: "false", .refreshDelay: "30",
        ])
        let json = try JSONDecoder().decode(
            ResolveRequest.Patch.self,
            from: Data(
                #"{"installed": ["twitter", "spotify"], "platform": "pad", "timeout": 2.5, "clean": false, "refreshDelay": 30}"#
                    .utf8
            )
        )
        #expect(typed == text)
        #expect(typed == json)
        let defaults = ResolveRequest(timeLimit: .seconds(5))
        let request = try typed.applied(to: defaults)
        #expect(
            request
                == (try ResolveRequest(
                    fields: [
                        .installed: "twitter,spotify", .platform: "pad", .timeout: "2.5", .clean: "false",
                        .refreshDelay: "30",
                    ],
                    defaults: defaults
                ))
        )
        #expect(request.timeLimit == .milliseconds(2500) && request.maximumRefreshDelay == 30 && !request.cleansLinks)
        #expect(try ResolveRequest.Patch().applied(to: defaults) == defaults)
        var tooLong = ResolveRequest.Patch()
        tooLong.timeout = 601
        #expect {
            try tooLong.applied(to: defaults)
        } throws: { error in
            (error as? ResolveRequestError)?.description.hasPrefix(
                #"timeout takes seconds, at least 0.001 and at most 600, not "601""#
            ) == true
        }
    }

    @Test func theTimeLimitIsCheckedTheSameWayEverywhere() throws {
        #expect(try ResolveRequest.timeLimit(seconds: 600) == .seconds(600))
        #expect(throws: ResolveRequestError.self) { try ResolveRequest.timeLimit(seconds: 0) }
        #expect(throws: ResolveRequestError.self) { try ResolveRequest.timeLimit(seconds: .nan) }
        #expect(throws: ResolveRequestError.self) { try ResolveRequest.timeLimit(seconds: -1) }
    }
}
