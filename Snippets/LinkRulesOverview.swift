// The program of LinkRules' overview, which shows it slice by slice. `swift build` builds it, and
// SwitchyardCLITests runs it: its output must be exactly the `// → ` lines, in order.

// snippet.load
import LinkRules

// A v5 manifest: one app, one action with a test, one redirect rule; one format names an app that does not exist
// and one key is misspelt.
let text = #"""
    {
      "apps": [
        {"identifier": "notes", "name": "Notes Example", "scheme": "notes-example", "storeId": 123456789}
      ],
      "actions": [
        {
          "tittle": "Open Note",
          "regex": "^https?://notes\\.example\\.com/n/(\\w+)",
          "testInputs": ["https://notes.example.com/n/abc", "https://notes.example.com/about"],
          "formats": [
            {"appId": "notes", "format": "notes-example://note/$1", "testResults": ["notes-example://note/abc", null]},
            {"appId": "missing", "format": "missing://$1"}
          ]
        }
      ],
      "redirects": {
        "^https://out\\.example\\.com/\\?u=": {
          "param": "u",
          "tests": {"https://out.example.com/?u=https%3A%2F%2Fnotes.example.com%2Fn%2Fabc": "https://notes.example.com/n/abc"}
        }
      }
    }
    """#

let loaded = try ManifestLoader().load(text, file: "rules.json")
let manifest = loaded.manifest
print(manifest.version, manifest.apps.map(\.scheme))
// → v5 ["notes-example"]
// The misspelt title is missing, so the action has the default one; the format naming no app is left out.
for action in manifest.actions {
    print(action.title, action.hasTitle, action.formats.map(\.appId), action.testInputs.count)
}
// → Open Link false ["notes"] 2
print(manifest.redirects.map(\.pattern), manifest.redirects.map(\.tests.count))
// → ["^https://out\\.example\\.com/\\?u="] [1]
// snippet.end

// snippet.diagnostics
// The misspelt key and the unknown app are diagnostics, with a JSON pointer and a line:column each; the entry
// that cannot work is left out, and everything else loads.
for diagnostic in loaded.diagnostics {
    print(diagnostic)
}
// → rules.json:7:17: warning: unknown key "tittle" is ignored; did you mean "title"? [W_UNKNOWN_KEY at /actions/0/tittle]
// → rules.json:12:19: error: appId "missing" names no app in "apps"; this format is ignored [E_UNKNOWN_APP at /actions/0/formats/1/appId]

// Only a file that cannot be a manifest at all (unreadable, not JSON, too large, not an object) throws.
do {
    _ = try ManifestLoader().load("[1, 2]", file: "list.json")
} catch {
    print(error)
}
// → list.json:1:1: error: the manifest must be a JSON object, not an array [E_NOT_MANIFEST]
// snippet.end
