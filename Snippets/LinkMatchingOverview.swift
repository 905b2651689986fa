// The program of LinkMatching's overview, which shows it slice by slice. `swift build` builds it, and
// SwitchyardCLITests runs it: its output must be exactly the `// → ` lines, in order.

// snippet.compile
import Foundation
import LinkMatching
import LinkRules
import WebLinks

let manifest = #"""
    {
      "apps": [
        {"identifier": "notes", "name": "Notes Example", "scheme": "notes-example"},
        {"identifier": "reader", "name": "Reader Example", "scheme": "reader-example", "platform": "pad"},
        {"identifier": "viewer", "name": "Viewer Example", "scheme": "viewer-example"}
      ],
      "actions": [
        {
          "title": "Open Note",
          "regex": "^https?://notes\\.example\\.com/n/(\\w+)",
          "formats": [
            {"appId": "notes", "format": "notes-example://note/$1"},
            {"appId": "reader", "format": "reader-example://open?id=$1"},
            {"appId": "viewer", "script2": "function process(url, done) { done('viewer-example://' + url.length) }"}
          ]
        },
        {
          "title": "Open Photo",
          "regex": "^https?://photos\\.example\\.com/",
          "formats": [{"appId": "viewer", "format": "viewer-example://photo"}]
        }
      ],
      "redirects": {
        "^https://out\\.example\\.com/\\?u=": {"param": "u"}
      }
    }
    """#

// No script checker: the matcher keeps the scripts as they are and never runs them.
let rules = try RuleSet.load(manifest, file: "rules.json", scriptChecker: nil)
print(rules.errors.count, rules.scripts.map(\.description))
// → 0 ["/actions/0/formats/2/script2"]
// snippet.end

// snippet.resolve
let link = try Link("https://out.example.com/?u=https%3A%2F%2Fnotes.example.com%2Fn%2Fabc")
let resolution = rules.resolve(link, options: MatchOptions(platform: .phone), trace: true)
print(resolution.unwrapped, resolution.steps.map(\.kind.rawValue))
// → https://notes.example.com/n/abc ["redirect-rule"]

// The reader app is for iPads only, so it is left out; the viewer's URL needs its script.
for opening in resolution.openings {
    print(opening.rule, opening.app?.identifier ?? "-", opening.url ?? "needs a script: \(opening.needsScript)")
}
// → /actions/0/formats/0 notes notes-example://note/abc
// → /actions/0/formats/2 viewer needs a script: true
// snippet.end

// snippet.trace
for action in resolution.trace?.actions ?? [] {
    print(action.rule, action.verdict.rawValue, action.requiredLiterals ?? [])
}
// → /actions/0 matched ["notes.example.com/n/"]
// → /actions/1 not a candidate ["photos.example.com/"]

// An opening's JSON, the same in every document Switchyard prints.
let encoder = JSONEncoder()
encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
print(String(decoding: try encoder.encode(resolution.openings[0]), as: UTF8.self))
// → {"app":"notes","appName":"Notes Example","kind":"action","needsScript":false,"rule":"/actions/0/formats/0","scheme":"notes-example","title":"Open Note","url":"notes-example://note/abc"}
// snippet.end
