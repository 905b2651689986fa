// The program of LinkResolver's overview, which shows it slice by slice. `swift build` builds it, and
// SwitchyardCLITests runs it: its output must be exactly the `// → ` lines, in order.

// snippet.resolve
import BundledRules
import LinkMatching
import LinkResolver

let resolver = Resolver(rules: try RuleSet.bundled(), engine: ScriptEngine(fetcher: nil), fetcher: nil)
let resolution = try await resolver.resolve("  https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42 ")
for opening in resolution.openings where opening.kind == .action {
    print(opening.app?.name ?? "-", opening.url ?? "-")
}
// → YouTube youtube://www.youtube.com/watch?v=dQw4w9WgXcQ
// snippet.end

// snippet.refuse
do {
    _ = try await resolver.resolve("www.youtube.com/watch?v=dQw4w9WgXcQ")
} catch {
    print(error)
}
// → "www.youtube.com/watch?v=dQw4w9WgXcQ" is not an absolute URL: it needs a scheme such as https; did you mean "https://www.youtube.com/watch?v=dQw4w9WgXcQ"? [E_NOT_ABSOLUTE]
// snippet.end
