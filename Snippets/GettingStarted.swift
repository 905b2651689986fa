// The program of LinkResolver's getting-started article, which shows it slice by slice. `swift build` builds it,
// and SwitchyardCLITests runs it: its output must be exactly the `// → ` lines, in order.

// snippet.load
import Foundation
import LinkMatching
import LinkResolver
import LinkRules
import WebLinks

let manifest = #"""
    {
      "apps": [
        {"identifier": "notes", "name": "Notes Example", "scheme": "notes-example"},
        {"identifier": "viewer", "name": "Viewer Example", "scheme": "viewer-example"}
      ],
      "actions": [
        {
          "title": "Open Note",
          "regex": "^https?://notes\\.example\\.com/n/(\\w+)",
          "testInputs": ["https://notes.example.com/n/abc", "https://notes.example.com/about"],
          "formats": [
            {"appId": "notes", "format": "notes-example://note/$1", "testResults": ["notes-example://note/abc", null]},
            {
              "appId": "viewer",
              "script2": "function process(url, done) { done('viewer-example://open?length=' + url.length) }",
              "testResults": ["viewer-example://open?length=31", null]
            }
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
let file = FileManager.default.temporaryDirectory.appendingPathComponent("getting-started-rules.json")
try manifest.write(to: file, atomically: true, encoding: .utf8)

// ManifestSource(argument:) is how the command line reads `--manifest`: nil means the bundled rules.
let source = ManifestSource(argument: file.path)
let loaded = try await RuleSetLoader(policy: .serving).load(source)
print(loaded.rules.manifest.actions.count, loaded.testReport?.passed ?? 0, loaded.testReport?.skipped ?? 0)
// → 1 3 2
// snippet.end

// snippet.resolve
// No fetcher: offline, so no short-link unwrapping, no header lookups, and scripts get no network.
let resolver = Resolver(rules: loaded.rules, engine: ScriptEngine(fetcher: nil), fetcher: nil)
// Installed apps are listed by URL scheme, as an app finds them with canOpenURL.
let request = ResolveRequest(
    match: MatchOptions(installed: InstalledApps(list: "notes-example, viewer-example")),
    timeLimit: .seconds(2)
)
let resolution = try await resolver.resolve(
    "https://out.example.com/?u=https%3A%2F%2Fnotes.example.com%2Fn%2Fabc",
    request
)
for opening in resolution.openings {
    print(opening.app?.name ?? "-", opening.url ?? opening.error?.description ?? "no URL")
}
// → Notes Example notes-example://note/abc
// → Viewer Example viewer-example://open?length=31
// snippet.end

// snippet.read
print(resolution.unwrapped)
// → https://notes.example.com/n/abc
print(resolution.steps.map { "\($0.kind.rawValue) \($0.location?.description ?? "")" })
// → ["redirect-rule /redirects/^https:~1~1out\\.example\\.com~1\\?u="]

let json = try DocumentEncoder.json().encode(resolution.openings[1])
print(String(decoding: json, as: UTF8.self))
// → {"app":"viewer","appName":"Viewer Example","kind":"action","needsScript":false,"rule":"/actions/0/formats/1","scheme":"viewer-example","title":"Open Note","url":"viewer-example://open?length=31"}
// snippet.end

// snippet.batch
await resolver.resolve(each: ["https://notes.example.com/n/xyz", "notes.example.com/n/xyz"], request) { result in
    switch result {
    case .resolved(let resolution): print("resolved", resolution.openings.count)
    case .refused(let input, let error): print("refused", input, error.code.rawValue)
    }
}
// → resolved 2
// → refused notes.example.com/n/xyz E_NOT_ABSOLUTE
// snippet.end

// snippet.explain
var explaining = request
explaining.trace = true
let explained = try await resolver.resolve("https://notes.example.com/about", explaining)
for action in explained.trace?.actions ?? [] {
    print(action.rule, action.verdict.rawValue, action.requiredLiterals ?? [])
}
// → /actions/0 not a candidate ["notes.example.com/n/"]
print(explained.trace?.redirects.map(\.verdict.rawValue) ?? [])
// → ["no match"]
// snippet.end

// snippet.tests
let report = await RuleTestRunner(resolver: resolver, timeLimit: .seconds(2)).run()
print(report.passed, report.failed, report.skipped)
// → 5 0 0
for result in report.results where result.kind == .script {
    print(result.location, result.status.rawValue, result.actual ?? "null")
}
// → /actions/0/formats/1/testResults/0 passed viewer-example://open?length=31
// → /actions/0/formats/1/testResults/1 passed null
// snippet.end

// snippet.core
let core = loaded.rules.resolve(try Link("https://notes.example.com/n/abc"), options: MatchOptions())
print(core.openings.map { "\($0.app?.identifier ?? "-") \($0.url ?? "needsScript: \($0.needsScript)")" })
// → ["notes notes-example://note/abc", "viewer needsScript: true"]
// snippet.end
