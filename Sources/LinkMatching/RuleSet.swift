import Foundation
import LinkRules
import LinkWrappers

/// A manifest compiled once into an immutable, `Sendable` rule set: every regex compiled, every template checked.
///
/// Compiling never fails as a whole: an action whose regex ICU rejects, or a format whose template names a group the
/// regex lacks, is left out and reported in ``diagnostics``, so one bad rule never takes the others down.
public struct RuleSet: Sendable {
    /// The manifest, as loaded.
    public let manifest: Manifest
    /// The file it came from, when known.
    public let file: String?
    /// Load and compile diagnostics, in file order.
    public let diagnostics: [Diagnostic]
    package let actions: [CompiledAction]
    package let browsers: [CompiledBrowser]
    /// What the hot loop reads of each browser, in one contiguous array (parallel to `browsers`).
    let browserPlans: [BrowserPlan]
    /// The distinct trivial browser patterns (browsers refer to them by index).
    let trivialPatterns: [TrivialPattern]
    package let previews: [CompiledPreview]
    package let redirects: [CompiledRedirect]
    /// The redirect rules whose regex could match a link (most links need none of the regexes run).
    let redirectFilter: Prefilter
    let actionFilter: Prefilter
    /// Actions matched against `URL + "\n" + headers JSON`: candidates whenever headers are given.
    package let headerActions: [Int]
    /// For each `headers` action, its pattern's part before the `\n` (nil: cannot be split, assume it applies).
    package let headerURLPatterns: [CompiledRegex?]
    /// Every script of the rules that compiled, in manifest order (actions' formats, browsers, previews): what a
    /// script engine compiles once for this rule set.
    public let scripts: [RuleScript]
    let previewFilter: Prefilter

    /// What the literal prefilter indexes of each action and preview (parallel to `actions` and `previews`), kept so
    /// that a user layer can be combined with these rules without compiling them again.
    package let indexedActionLiterals: [[String]?]
    package let indexedPreviewLiterals: [[String]?]
    /// The user's own layer applied over the manifest, when there is one (see ``applying(_:scriptChecker:)``).
    public let userLayer: AppliedUserLayer?
    /// The link wrappers decoded before the redirect rules, by ``resolve(_:options:trace:)`` and every resolver: the
    /// built-in catalog, with the user layer's own entries first and without the built-in ones it switches off.
    public let wrappers: LinkWrapperCatalog

    /// Compiles a loaded manifest; `scriptChecker` parses its scripts (nil: they are kept unchecked).
    public init(_ loaded: LoadedManifest, scriptChecker: (any ScriptChecking)?) {
        self.init(loaded, scriptChecker: scriptChecker, layer: nil)
    }

    /// Compiles a loaded manifest whose rules belong to `layer` (nil: the manifest's; every opening, action trace and
    /// redirect step of the rules carries the layer).
    package init(_ loaded: LoadedManifest, scriptChecker: (any ScriptChecking)?, layer: RuleLayer?) {
        let manifest = loaded.manifest
        let appsById = Dictionary(manifest.apps.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        // Every rule's regex compilation, template and script checks and literal analysis are independent: all
        // kinds of rules go through one pass spread over the cores (diagnostics are sorted by position below).
        let jobs =
            manifest.actions.map(CompileJob.action) + manifest.previews.map(CompileJob.preview)
            + manifest.browsers.map(CompileJob.browser) + manifest.redirects.map(CompileJob.redirect)
        let results = jobs.concurrentMap { job in
            var compiler = RuleCompiler(loaded: loaded, scriptChecker: scriptChecker, layer: layer)
            let compiled: CompileOutcome
            switch job {
            case .action(let action):
                let result = compiler.compile(action, appsById: appsById)
                compiled = .action(result, result.flatMap { RequiredLiterals.of($0.action.regex) })
            case .preview(let preview):
                let result = compiler.compile(preview)
                compiled = .preview(result, result.flatMap { RequiredLiterals.of($0.preview.regex) })
            case .browser(let browser): compiled = .browser(compiler.compile(browser))
            case .redirect(let rule): compiled = .redirect(compiler.compile(rule))
            }
            return (compiled, compiler.diagnostics)
        }
        var actionResults: [(CompiledAction, [String]?)] = []
        var previewResults: [(CompiledPreview, [String]?)] = []
        var compiledBrowsers: [CompiledBrowser] = []
        var redirects: [CompiledRedirect] = []
        for (outcome, _) in results {
            switch outcome {
            case .action(let action?, let literals): actionResults.append((action, literals))
            case .preview(let preview?, let literals): previewResults.append((preview, literals))
            case .browser(let browser?): compiledBrowsers.append(browser)
            case .redirect(let redirect?): redirects.append(redirect)
            default: break
            }
        }
        // File order: a maintainer reads them top to bottom next to the file.
        let diagnostics = Diagnostic.inFileOrder(loaded.diagnostics + results.flatMap(\.1))
        self.init(
            manifest: manifest,
            file: loaded.file,
            diagnostics: diagnostics,
            actions: actionResults,
            previews: previewResults,
            browsers: compiledBrowsers,
            redirects: redirects,
            userLayer: nil
        )
    }

    /// Assembles compiled rules into the matcher's structures (the prefilters, the trivial browser patterns).
    package init(
        manifest: Manifest,
        file: String?,
        diagnostics: [Diagnostic],
        actions actionResults: [(CompiledAction, [String]?)],
        previews previewResults: [(CompiledPreview, [String]?)],
        browsers compiledBrowsers: [CompiledBrowser],
        redirects: [CompiledRedirect],
        userLayer: AppliedUserLayer?,
        wrappers: LinkWrapperCatalog = .builtIn
    ) {
        let actions = actionResults.map(\.0)
        let previews = previewResults.map(\.0)
        var trivialPatterns: [TrivialPattern] = []
        var trivialIndexByPattern: [String: Int] = [:]
        let browsers = compiledBrowsers.map { browser -> CompiledBrowser in
            guard let trivial = browser.trivial else { return browser }
            let pattern = browser.browser.regex
            if trivialIndexByPattern[pattern] == nil {
                trivialIndexByPattern[pattern] = trivialPatterns.count
                trivialPatterns.append(trivial)
            }
            return CompiledBrowser(
                browser: browser.browser,
                regex: browser.regex,
                output: browser.output,
                script: browser.script,
                trivialIndex: trivialIndexByPattern[pattern]
            )
        }
        self.browsers = browsers
        browserPlans = browsers.map(BrowserPlan.init)
        self.trivialPatterns = trivialPatterns
        scripts =
            actions.flatMap { $0.formats.compactMap(\.script) } + browsers.compactMap(\.script)
            + previews.compactMap(\.script)
        self.redirects = redirects
        redirectFilter = Prefilter(patterns: redirects.map(\.rule.pattern))
        indexedActionLiterals = actionResults.map(\.1)
        indexedPreviewLiterals = previewResults.map(\.1)
        actionFilter = Prefilter(literals: indexedActionLiterals)
        headerActions = actions.indices.filter { actions[$0].action.headers }
        headerURLPatterns = headerActions.map { Self.urlPart(ofHeadersPattern: actions[$0].action.regex) }
        previewFilter = Prefilter(literals: indexedPreviewLiterals)
        self.actions = actions
        self.previews = previews
        self.manifest = manifest
        self.file = file
        self.diagnostics = diagnostics
        self.userLayer = userLayer
        self.wrappers = wrappers
    }

    /// Loads and compiles a manifest file.
    public static func load(
        contentsOf url: URL,
        limits: ManifestLimits = ManifestLimits(),
        scriptChecker: (any ScriptChecking)?
    ) throws(ManifestError) -> RuleSet {
        RuleSet(try ManifestLoader(limits: limits).load(contentsOf: url), scriptChecker: scriptChecker)
    }

    /// Loads and compiles a manifest from its text.
    public static func load(
        _ text: String,
        file: String? = nil,
        scriptChecker: (any ScriptChecking)?
    ) throws(ManifestError) -> RuleSet {
        RuleSet(try ManifestLoader().load(text, file: file), scriptChecker: scriptChecker)
    }

    /// The diagnostics that are errors.
    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }

    /// The part of a `headers` rule's pattern before its top-level `\n`, compiled.
    package static func urlPart(ofHeadersPattern pattern: String) -> CompiledRegex? {
        let characters = Array(pattern)
        var depth = 0
        var inClass = false
        var index = 0
        while index < characters.count {
            switch characters[index] {
            case "\\":
                if !inClass, depth == 0, index + 1 < characters.count, characters[index + 1] == "n" {
                    return try? CompiledRegex(String(characters[..<index]))
                }
                index += 1
            case "[": inClass = true
            case "]": inClass = false
            case "(" where !inClass: depth += 1
            case ")" where !inClass: depth -= 1
            default: break
            }
            index += 1
        }
        return nil
    }
}

/// One rule to compile, of any kind.
private enum CompileJob: Sendable {
    case action(Action)
    case preview(Preview)
    case browser(Browser)
    case redirect(RedirectRule)
}

/// A compiled rule (nil: left out, with diagnostics), with the literals the prefilter indexes for actions and previews.
private enum CompileOutcome: Sendable {
    case action(CompiledAction?, [String]?)
    case preview(CompiledPreview?, [String]?)
    case browser(CompiledBrowser?)
    case redirect(CompiledRedirect?)
}

// The compiled entries are classes so that the hot loop retains one reference per entry instead of copying every
// field of large structs (measured: value copies were a fifth of the compiled resolver's time).

package final class CompiledAction: Sendable {
    package let action: Action
    package let regex: CompiledRegex
    package let formats: [CompiledFormat]
    /// The layer the action comes from (nil: the manifest).
    package let layer: RuleLayer?
    /// Whether every format is a script or a template split into parts, so an ASCII link's openings can be rendered
    /// from match offsets alone (ICU's C API on Linux) without Foundation's template engine.
    package let rendersFromOffsets: Bool
    /// Whether any format is left (read in the hot loop without touching the formats array).
    package let hasFormats: Bool

    init(action: Action, regex: CompiledRegex, formats: [CompiledFormat], layer: RuleLayer?) {
        self.layer = layer
        self.action = action
        self.regex = regex
        self.formats = formats
        hasFormats = !formats.isEmpty
        rendersFromOffsets = formats.allSatisfy { format in
            if case .script = format.output { return true }
            return format.templateParts != nil
        }
    }
}

package final class CompiledFormat: Sendable {
    package let format: Format
    package let app: App
    package let output: Output
    /// Where the format is defined (every opening carries it).
    package let rule: JSONPointer
    /// Its script (nil: a template).
    package let script: RuleScript?
    /// The app's metadata for openings, computed once.
    package let appInfo: OpeningApp
    /// The app's scheme, lower-cased, for the installed-apps filter.
    package let scheme: String
    /// The app's platform limit.
    package let platform: Platform?
    /// The layer the format comes from (nil: the manifest); its openings carry it.
    package let layer: RuleLayer?

    /// The template split into text and groups, so ASCII links render without ICU (nil: render with ICU).
    let templateParts: TemplateParts?

    init(format: Format, app: App, output: Output, groupCount: Int, matchesHeaders: Bool, layer: RuleLayer?) {
        self.layer = layer
        self.format = format
        self.app = app
        self.output = output
        script = RuleScript(output, rule: format.pointer, matchesHeaders: matchesHeaders)
        if case .template(let template) = output {
            templateParts = TemplateParts(template, groupCount: groupCount)
        } else {
            templateParts = nil
        }
        rule = format.pointer
        appInfo = OpeningApp(app)
        scheme = app.scheme.lowercased()
        platform = app.platform
    }
}

package final class CompiledBrowser: Sendable {
    package let browser: Browser
    package let regex: CompiledRegex
    package let output: Output
    /// The regex as a trivial pattern, matched without ICU (nil: use the regex).
    let trivial: TrivialPattern?
    /// The template split for the trivial path (nil: render with ICU).
    let templateParts: TemplateParts?
    /// The index of its pattern in `RuleSet.trivialPatterns`.
    package let trivialIndex: Int?
    /// Where the browser is defined.
    package let rule: JSONPointer
    /// Its script (nil: a template).
    package let script: RuleScript?
    /// The browser's metadata for openings, computed once.
    package let appInfo: OpeningApp
    /// The browser's scheme, lower-cased, for the installed-apps filter.
    package let scheme: String
    /// The browser's platform limit.
    package let platform: Platform?

    init(browser: Browser, regex: CompiledRegex, output: Output, script: RuleScript?, trivialIndex: Int? = nil) {
        self.trivialIndex = trivialIndex
        self.script = script
        self.browser = browser
        self.regex = regex
        self.output = output
        rule = browser.pointer
        appInfo = OpeningApp(browser.app)
        scheme = browser.app.scheme.lowercased()
        platform = browser.app.platform
        let trivial = TrivialPattern(browser.regex)
        self.trivial = trivial.flatMap { $0.groupCount == regex.groupCount ? $0 : nil }
        if case .template(let template) = output, let trivial = self.trivial {
            templateParts = TemplateParts(template, groupCount: trivial.groupCount)
        } else {
            templateParts = nil
        }
    }
}

/// A browser as the resolver's loop needs it, stored inline in an array: reading 44 browsers per link through their
/// compiled objects (several cache lines each, plus the app's) was a third of the compiled resolver's time.
struct BrowserPlan: Sendable {
    /// The index of its trivial pattern (-1: matched with its regex).
    let trivialIndex: Int
    /// The browser's script (nil: a template).
    let script: RuleScript?
    /// The template split for the trivial path (nil: render with ICU).
    let parts: TemplateParts?
    /// Whether the template's text holds no control character.
    let templateIsPlain: Bool
    /// Whether the template starts with text naming an allowed scheme (`dolphin://$1`).
    let templateFixesSafeScheme: Bool
    let app: OpeningApp
    let title: String
    let rule: JSONPointer

    init(_ browser: CompiledBrowser) {
        trivialIndex = browser.trivialIndex ?? -1
        script = browser.script
        parts = browser.templateParts
        templateIsPlain = browser.templateParts?.isPlainText ?? false
        templateFixesSafeScheme = browser.templateParts?.startsWithSafeScheme ?? false
        app = browser.appInfo
        title = browser.appInfo.name
        rule = browser.rule
    }
}

package final class CompiledPreview: Sendable {
    package let preview: Preview
    package let regex: CompiledRegex
    package let output: Output
    /// Where the preview is defined.
    package let rule: JSONPointer
    /// Its script (nil: a template).
    package let script: RuleScript?

    init(preview: Preview, regex: CompiledRegex, output: Output) {
        self.preview = preview
        self.regex = regex
        self.output = output
        rule = preview.pointer
        script = RuleScript(output, rule: preview.pointer, matchesHeaders: false)
    }
}

package final class CompiledRedirect: Sendable {
    package let rule: RedirectRule
    package let regex: CompiledRegex
    /// The layer the rule comes from (nil: the manifest).
    package let layer: RuleLayer?

    init(rule: RedirectRule, regex: CompiledRegex, layer: RuleLayer?) {
        self.rule = rule
        self.regex = regex
        self.layer = layer
    }
}
