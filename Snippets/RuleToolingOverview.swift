// The program of RuleTooling's overview, which shows it slice by slice. `swift build` builds it, and
// SwitchyardCLITests runs it: its output must be exactly the `// → ` lines, in order.

// snippet.lint
import LinkMatching
import LinkResolver
import LinkRules
import RuleTooling

let text = #"""
    {
      "apps": [
        {"identifier": "notes", "name": "Notes Example", "scheme": "notes-example"},
        {"identifier": "unused", "name": "Unused Example", "scheme": "unused-example"}
      ],
      "actions": [
        {
          "title": "Open Note",
          "regex": "^https?://notes\\.example\\.com/n/(\\w+)",
          "testInputs": ["https://notes.example.com/n/abc"],
          "formats": [
            {
              "appId": "notes",
              "script2": "function process(url, done) {\n  // the note id is the last path segment\n  done('notes-example://note/' + url.split('/').pop());\n}",
              "testResults": ["notes-example://note/abc"]
            }
          ]
        }
      ]
    }
    """#

let report = RuleLinter().lint(Array(text.utf8), file: "rules.json")
for diagnostic in report.diagnostics {
    print(diagnostic)
}
// → rules.json:4:5: warning: no format uses the app "unused" [W_UNUSED_APP at /apps/1]
// snippet.end

// snippet.minify
// Minify, and prove on the original's own tests that the result behaves the same.
let loaded = try ManifestLoader().load(text, file: "rules.json")
let minified = ManifestMinifier().minify(loaded.root!)
print(text.utf8.count, "->", minified.text.utf8.count, "bytes")
// → 645 -> 362 bytes
let minifiedRoot = try ManifestLoader().load(minified.text).root
let format = minifiedRoot?["actions"]?.elements?.first?["formats"]?.elements?.first
print(format?["script2"]?.stringValue ?? "-")
// → function process(url,done){done('notes-example://note/'+url.split('/').pop());}

let proof = await ManifestEquivalence.check(
    original: RuleSet(loaded),
    rewritten: try RuleSet.load(minified.text, file: "rules.min.json"),
    engine: ScriptEngine(fetcher: nil)
)
print(proof.isEquivalent, proof.summary)
// → true 1 case (1 script): identical outcomes, 1 passed, 0 failed, 0 skipped on both
// snippet.end

// snippet.migrate
// Migrate down to v2: long key names, schemes with ://, and a warning for what a v2 client cannot run.
let v2 = ManifestMigrator(to: .v2).migrate(loaded)
print(JSONWriter(style: .compact).write(v2.root["apps"]!.elements![0]))
// → {"identifier":"notes","displayName":"Notes Example","scheme":"notes-example://"}
for warning in v2.warnings {
    print(warning)
}
// → rules.json:14:22: warning: "script2" needs Opener 1.1.8 (a v3 client), and nothing else produces this URL; kept, though a v2 client cannot run it (clients skip unknown keys) [W_MIGRATE_UNSUPPORTED at /actions/0/formats/0/script2]
// snippet.end
