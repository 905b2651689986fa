import LinkMatching
import LinkResolver
import LinkRules
import SwitchyardTestSupport
import Testing

/// What a script hands out goes through the same rules as a template's output.
@Suite struct ScriptOutputTests {
    @Test func invisibleCharactersInAScriptResultArePercentEncoded() async throws {
        let rules = try RuleFixture.rules(
            actions: #"""
                [{"regex": "https?://s\\.example/", "formats": [
                  {"appId": "alpha", "script2": "function process(url, done) { done('alpha://\u202Egnp.exe\u200B'); }"}]}]
                """#
        )
        let resolver = Resolver(rules: rules, engine: ScriptEngine(fetcher: nil), fetcher: nil)
        let resolution = try await resolver.resolve(
            "https://s.example/x",
            ResolveRequest(match: MatchOptions(includeBrowsers: false))
        )
        #expect(resolution.openings.map(\.url) == ["alpha://%E2%80%AEgnp.exe%E2%80%8B"])
    }
}
