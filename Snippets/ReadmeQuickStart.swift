// The README's Swift example, exactly as the README shows it between the `snippet.readme` markers (ReadmeTests
// checks that the two texts are the same), so the README cannot show code that does not compile. SwitchyardCLITests
// runs it: its output must be exactly the `// → ` lines, in order.

// snippet.readme
import BundledRules
import LinkMatching
import LinkResolver
import LinkRules

let resolver = Resolver(rules: try RuleSet.bundled(), engine: ScriptEngine(fetcher: nil), fetcher: nil)
let resolution = try await resolver.resolve(
    "https://twitter.com/jack/status/20",
    ResolveRequest(match: MatchOptions(installed: InstalledApps(list: "twitter, tweetbot")))
)
for opening in resolution.openings where opening.kind == .action {
    print(opening.app?.name ?? opening.title, opening.url ?? opening.error?.message ?? "")
}
// snippet.end
// → X twitter://status?id=20
