// The program of BundledRules' overview, which shows it slice by slice. `swift build` builds it, and
// SwitchyardCLITests runs it: its output must be exactly the `// → ` lines, in order.

// snippet.list
import BundledRules
import LinkMatching
import WebLinks

// Switchyard's own rules, compiled: no file, no network, no JavaScriptCore.
let rules = try RuleSet.bundled()
let link = try Link("https://twitter.com/jack/status/20")
for opening in rules.openings(for: link) where opening.kind == .action {
    print(opening.app?.name ?? opening.title, opening.url ?? "(script)")
}
// → X twitter://status?id=20
// snippet.end
