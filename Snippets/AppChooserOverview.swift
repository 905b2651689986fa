// The program of AppChooser's overview, which shows it slice by slice. `swift build` builds it, and
// SwitchyardCLITests runs it: its output must be exactly the `// → ` lines, in order.

// snippet.picker
import AppChooser
import Foundation
// snippet.opener
import LinkMatching
import LinkRules
import WebLinks

let bundled = try AppCatalog.bundled()
print(bundled.types.map(\.key))
// → ["browser", "email", "maps", "twitter"]

// The remembered defaults live in a SQLite file; here in a folder of its own, removed at the end.
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("app-chooser-\(UUID().uuidString)")
let store = try ChoicesStore(path: folder.appendingPathComponent("choices.sqlite").path)
let message = ["to": "ana@example.com", "subject": "Lunch?"]

// Mail and Gmail are installed and no default was chosen: the picker shows.
var picker = AppPicker(
    catalog: bundled,
    installed: bundled.installation(InstalledApps(["mail", "gmail"])),
    store: store
)
var model = try picker.model(appType: "email", action: "compose", parameters: message)
print(model.showPicker, model.reason)
// → true no default app chosen for Email
for choice in model.choices {
    print(choice.app, choice.url)
}
// → mail mailto:ana@example.com?subject=Lunch%3F
// → gmail googlegmail:///co?to=ana%40example.com&subject=Lunch%3F
// snippet.end

// snippet.default
// The user picks Gmail: from now on it opens directly.
try picker.setDefault(appType: "email", app: "gmail")
model = try picker.model(appType: "email", action: "compose", parameters: message)
print(model.showPicker, model.defaultApp ?? "-", model.reason)
// → false gmail open the default app
// snippet.end

// snippet.new-app
// Downloaded data adds an app; once it is installed, the picker asks again, Gmail still marked.
let spark = try AppCatalog.decode(
    Data(
        #"""
        {"key": "email", "name": "Email", "apps": [{"key": "spark", "name": "Spark", "app_url_scheme": "readdle-spark:",
          "actions": [{"key": "compose", "url_format": "readdle-spark://compose?recipient={{to}}&subject={{subject}}"}]}]}
        """#.utf8
    ),
    source: "email.json"
)
let catalog = bundled.merging(spark)
let installed = catalog.installation(InstalledApps(["mail", "gmail", "readdle-spark"]))
picker = AppPicker(catalog: catalog, installed: installed, store: store)
model = try picker.model(appType: "email", action: "compose", parameters: message)
print(model.showPicker, model.choices.map { $0.isDefault ? "[\($0.app)]" : $0.app }, model.reason)
// → true ["mail", "[gmail]", "spark"] a new Email app was installed since the default was chosen

do {
    _ = try picker.model(appType: "fax", action: "send", parameters: [:])
} catch {
    print(error.code, error)
}
// → unknownType no app type "fax" (known: browser, email, maps, twitter) [E_UNKNOWN_TYPE]
// snippet.end

// An Opener manifest: one action that two apps can open, so it becomes an app type keyed by its JSON pointer.
let rules = try RuleSet.load(
    #"""
    {
      "apps": [
        {"identifier": "notes", "name": "Notes Example", "scheme": "notes-example"},
        {"identifier": "viewer", "name": "Viewer Example", "scheme": "viewer-example"}
      ],
      "actions": [
        {
          "title": "Open Note",
          "regex": "^https://notes\\.example\\.com/n/(\\w+)",
          "formats": [
            {"appId": "notes", "format": "notes-example://note/$1"},
            {"appId": "viewer", "format": "viewer-example://open?note=$1"}
          ]
        }
      ]
    }
    """#,
    file: "rules.json",
    scriptChecker: nil
)
let noteTypes = AppCatalog(openerManifest: rules.manifest)
for type in noteTypes.types {
    print(type.key, type.name, type.apps.map(\.key))
}
// → /actions/0 Open Note ["notes", "viewer"]

// The picker fills the choices with the URLs of a resolution, and remembers a default as for any type.
let resolution = rules.resolve(try Link("https://notes.example.com/n/abc"), options: MatchOptions())
let notePicker = AppPicker(catalog: noteTypes, installed: EveryAppInstalled(), store: store)
try notePicker.setDefault(appType: "/actions/0", app: "viewer")
let noteModel = try notePicker.model(for: resolution, appType: "/actions/0")
print(noteModel.showPicker, noteModel.reason)
for choice in noteModel.choices {
    print(choice.isDefault ? "[\(choice.app)]" : choice.app, choice.url)
}
// → false open the default app
// → notes notes-example://note/abc
// → [viewer] viewer-example://open?note=abc
// snippet.end

// snippet.sites
// "Always open notes.example.com with Notes": the store remembers the app per site, and the one function every
// front end calls marks that app's openings as preferred in a resolution.
try store.rememberSite("notes.example.com", app: "notes")
var marked = rules.resolve(try Link("https://notes.example.com/n/abc"), options: MatchOptions())
store.applyRememberedSite(to: &marked, rules: rules, installed: nil)
for opening in marked.openings {
    let mark = opening.preferred.map { " (preferred for \($0.reason))" } ?? ""
    print((opening.app?.identifier ?? "-") + mark)
}
// → notes (preferred for notes.example.com)
// → viewer

// A remembered app that is not installed marks nothing, and the resolution says why.
var unavailable = rules.resolve(
    try Link("https://notes.example.com/n/abc"),
    options: MatchOptions(installed: InstalledApps(["viewer-example"]))
)
store.applyRememberedSite(to: &unavailable, rules: rules, installed: InstalledApps(["viewer-example"]))
print(unavailable.notices.map(\.description))
// → ["the app \"notes\" remembered for notes.example.com is not installed [E_REMEMBERED_APP_UNAVAILABLE]"]

// A domain covers its subdomains; a public suffix cannot.
do {
    try store.rememberSite("co.uk", app: "notes", scope: .domain)
} catch {
    print(error.code)
}
// → publicSuffix
// snippet.end

try FileManager.default.removeItem(at: folder)
