/// What a script's source makes certain, worked out once when the script is compiled and applied in one place
/// (`ScriptRunner`'s plan for a run): the one analysis behind every way a run avoids JavaScriptCore or fetches before
/// it starts. At most one holds; they are tried in this order, from the most a reading can be sure of.
enum ScriptShortcut: Sendable, Hashable {
    /// The script only builds its result from its input (``ScriptTemplate``): evaluated without JavaScriptCore.
    case template(ScriptTemplate)
    /// The script certainly begins with this request (``RequestPrologue``): its answer is fetched before the first
    /// run, and offline the script needs the network before it does anything.
    case firstRequest(RequestPrologue)
    /// The script tests its input with a regular expression first (``ScriptGuard``): when the expression misses, the
    /// result is the template of its `else` branch.
    case guarded(ScriptGuard)
    /// Nothing is certain: JavaScriptCore runs it (its first request may still be forecast from its past runs,
    /// `RequestForecast`).
    case none

    /// The shortcut `source` has: the source is tokenized and its declaration read once (``ScriptSource/read(_:)``),
    /// then each reading is tried on that declaration.
    init(source: String) {
        guard let reading = ScriptSource.read(source) else {
            self = .none
            return
        }
        let declaration = reading.declaration
        if !reading.hasComments, let template = ScriptTemplate(declaration) {
            self = .template(template)
        } else if let prologue = RequestPrologue(declaration) {
            self = .firstRequest(prologue)
        } else if let guarded = ScriptGuard(declaration) {
            self = .guarded(guarded)
        } else {
            self = .none
        }
    }

    /// Whether no output of the script is worth keeping when shortcuts are taken: a template's is made as cheaply as
    /// it is looked up, and a script whose first request is certain fetches online and is decided at once offline.
    var keepsNoOutput: Bool {
        switch self {
        case .template, .firstRequest: true
        case .guarded, .none: false
        }
    }
}
