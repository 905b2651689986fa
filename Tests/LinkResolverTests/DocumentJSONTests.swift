import Foundation
import LinkMatching
import LinkResolver
import LinkRules
import SwitchyardTestSupport
import Testing

/// Resolutions write themselves (``DocumentJSON``) to exactly the bytes `JSONEncoder` writes for them: over the
/// real v5 manifest's test inputs, resolved with their scripts, and over documents with every awkward field.
@Suite struct DocumentJSONTests {
    /// What `JSONEncoder` writes for `value` as a document (the version spliced in front, as for any document).
    static func encoded(_ value: some Encodable) throws -> String {
        let body = String(decoding: try DocumentEncoder.json().encode(value), as: UTF8.self)
        return #"{"version":"\#(SwitchyardVersion.current)","# + body.dropFirst()
    }

    static func written(_ resolution: Resolution) throws -> String {
        String(decoding: try DocumentEncoder.document(resolution), as: UTF8.self)
    }

    static var awkward: String {
        var text = ""
        for value in 0..<0x80 { text.unicodeScalars.append(Unicode.Scalar(UInt8(value))) }
        return text + "\u{2028}\u{2029}\u{FEFF}é😀\u{202E}/\\\""
    }

    @Test func everyFieldAndEveryCharacterIsWrittenAsJSONEncoderWritesIt() throws {
        let app = OpeningApp(
            identifier: "a" + Self.awkward,
            name: "Name \"quoted\"",
            scheme: "s",
            storeId: 12345,
            iconURL: "https://i.example/x.png"
        )
        var preview = Opening(
            kind: .preview,
            app: nil,
            title: "Preview",
            url: "https://p.example/",
            rule: "/previews/0"
        )
        preview.canSave = false
        var userAction = Opening(kind: .action, app: app, title: "Mine", url: "a://x", rule: "/actions/0/formats/0")
        userAction.layer = .user
        userAction.preferred = OpeningPreference(by: .rememberedSite, reason: Self.awkward)
        // A claimed app the manifest does not name: no scheme is written; the claim names its file.
        var claimed = Opening(
            kind: .universalLink,
            app: OpeningApp(identifier: "com.example.app", name: "com.example.app", scheme: ""),
            title: "Universal link",
            url: "https://example.com/buy/1",
            rule: "/applinks/details/0/components/1"
        )
        claimed.claim = OpeningClaim(
            file: "https://example.com/.well-known/apple-app-site-association" + Self.awkward,
            rule: "/applinks/details/0/components/1",
            age: 42
        )
        let resolution = Resolution(
            input: Self.awkward,
            unwrapped: "https://a.example/\u{0}x",
            steps: [
                UnwrapStep(kind: .redirectRule, rule: "^x", location: "/redirects/^x~1y", from: "a", to: "b"),
                UnwrapStep(kind: .httpRedirect, rule: "HEAD 301", from: "b", to: nil, refused: "loop \n"),
                UnwrapStep(kind: .redirectRule, rule: "^m", from: "b", to: "c", layer: .user),
                {
                    var step = UnwrapStep(kind: .clean, rule: "ClearURLs", from: "c", to: "d")
                    step.details = ["removed utm_source=x (query) by providers/globalRules/rules/0", Self.awkward]
                    return step
                }(),
            ],
            openings: [
                Opening(kind: .action, app: app, title: Self.awkward, url: nil, rule: "/actions/0/formats/1"),
                Opening(
                    kind: .browser,
                    app: OpeningApp(identifier: "b", name: "B", scheme: "b"),
                    title: "B",
                    url: "b://x",
                    rule: "/browsers/3",
                    needsScript: true,
                    error: OpeningError(code: "E_X", message: Self.awkward)
                ),
                preview,
                userAction,
                claimed,
            ],
            timedOutRules: ["/actions/9", "/actions/a~0b"],
            notices: [
                ResolutionNotice(code: "E_REMEMBERED_APP_UNAVAILABLE", message: Self.awkward),
                ResolutionNotice(code: "E_X", message: ""),
            ]
        )
        #expect(try Self.written(resolution) == Self.encoded(resolution))
        #expect(try Self.written(resolution).contains(#""notices":[{"code":"E_REMEMBERED_APP_UNAVAILABLE","#))
        #expect(try Self.written(resolution).contains(#""appName":"com.example.app","claim":{"age":42,"file":"#))
        #expect(try !Self.written(resolution).contains(#""scheme":"""#))
        let empty = Resolution(input: "", unwrapped: "")
        #expect(try Self.written(empty) == Self.encoded(empty))
        // No notices: no key, either way.
        #expect(try !Self.written(empty).contains("notices"))
    }

    /// Notices are read back from a document, and a document without them reads as none.
    @Test func noticesDecodeAndMayBeAbsent() throws {
        let resolution = Resolution(
            input: "https://a.example/",
            unwrapped: "https://a.example/",
            notices: [ResolutionNotice(code: "E_REMEMBERED_APP_UNAVAILABLE", message: "gone")]
        )
        let decoded = try JSONDecoder().decode(Resolution.self, from: try DocumentEncoder.document(resolution))
        #expect(decoded == resolution)
        let without = try JSONDecoder().decode(
            Resolution.self,
            from: Data(#"{"input":"a","unwrapped":"a","steps":[],"openings":[],"timedOutRules":[]}"#.utf8)
        )
        #expect(without.notices.isEmpty)
    }

    /// A resolution with a trace (explain) goes through `Encodable`, and still carries the version first.
    @Test func aTracedResolutionIsEncodedAsBefore() throws {
        let rules = try RuleFixture.single(regex: "^https://a\\.example/", format: "alpha://x")
        let traced = try rules.resolve("https://a.example/", trace: true)
        #expect(traced.trace != nil)
        #expect(try Self.written(traced) == Self.encoded(traced))
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func theV5ManifestsTestInputsAreWrittenAsJSONEncoderWritesThem() async throws {
        let manifest = try ManifestLoader().load(
            Array(try SharedData.data("openerManifest-v5.json")),
            file: "openerManifest-v5.json"
        )
        let resolver = Resolver(rules: RuleSet(manifest), engine: ScriptEngine(fetcher: nil), fetcher: nil)
        let inputs = manifest.manifest.actions.flatMap(\.testInputs)
        #expect(inputs.count > 500)
        var compared = 0
        for input in inputs {
            guard let resolution = try? await resolver.resolve(input, ResolveRequest(timeLimit: .seconds(5))) else {
                continue
            }
            #expect(try Self.written(resolution) == Self.encoded(resolution), "\(input)")
            compared += 1
        }
        #expect(compared > 500)
    }
}
