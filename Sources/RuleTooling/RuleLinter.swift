import Foundation
import LinkMatching
import LinkResolver
import LinkRules
import WebLinks

/// Finds every problem in a manifest in one pass: what the loader and compiler report (JSON syntax, types, unknown
/// keys with suggestions, duplicate identifiers, unknown apps, ICU regex errors, `$N` beyond the groups, output
/// fields, test lengths, script syntax checked by JavaScriptCore) plus checks that need the whole rule set: stale
/// tests, apps no format uses, redirect rules shadowed on their own tests, and output schemes the app does not
/// declare.
///
/// Every diagnostic carries a severity, a JSON pointer and, when the file is JSON, `line:column`.
public struct RuleLinter: Sendable {
    /// Size limits for loading.
    public var limits: ManifestLimits

    /// Creates a linter.
    public init(limits: ManifestLimits = ManifestLimits()) {
        self.limits = limits
    }

    /// Lints a manifest file; a file that cannot be read or parsed gives one error diagnostic.
    public func lint(contentsOf url: URL) -> LintReport {
        let name = url.isFileURL ? url.path : url.absoluteString
        do {
            return lint(try ManifestLoader(limits: limits).load(contentsOf: url))
        } catch {
            return LintReport(file: name, diagnostics: [Self.diagnostic(for: error, file: name)])
        }
    }

    /// Lints a manifest from its bytes.
    public func lint(_ bytes: [UInt8], file: String? = nil) -> LintReport {
        do {
            return lint(try ManifestLoader(limits: limits).load(bytes, file: file))
        } catch {
            return LintReport(file: file, diagnostics: [Self.diagnostic(for: error, file: file)])
        }
    }

    /// Lints a loaded manifest.
    public func lint(_ loaded: LoadedManifest) -> LintReport {
        let rules = RuleSet(loaded)
        var checks = LintChecks(loaded: loaded, rules: rules)
        checks.run()
        return LintReport(
            file: loaded.file,
            diagnostics: Diagnostic.inFileOrder(rules.diagnostics + checks.diagnostics)
        )
    }

    static func diagnostic(for error: ManifestError, file: String?) -> Diagnostic {
        Diagnostic(
            .error,
            error.code.rawValue,
            error.message,
            at: .root,
            position: error.position,
            file: file ?? error.file
        )
    }

}

/// What `lint` found.
public struct LintReport: Sendable, Codable, Equatable {
    /// The file linted, when known.
    public var file: String?
    /// Every problem, in file order.
    public var diagnostics: [Diagnostic]
    /// How many are errors.
    public var errorCount: Int
    /// How many are warnings.
    public var warningCount: Int

    /// Creates a report.
    public init(file: String?, diagnostics: [Diagnostic]) {
        self.file = file
        self.diagnostics = diagnostics
        errorCount = diagnostics.count { $0.severity == .error }
        warningCount = diagnostics.count { $0.severity == .warning }
    }

    /// The diagnostics with this code.
    public func diagnostics(withCode code: String) -> [Diagnostic] { diagnostics.filter { $0.code == code } }
}

/// The checks that need the compiled rule set.
struct LintChecks {
    let loaded: LoadedManifest
    let rules: RuleSet
    private(set) var diagnostics: [Diagnostic] = []

    init(loaded: LoadedManifest, rules: RuleSet) {
        self.loaded = loaded
        self.rules = rules
    }

    mutating func report(_ severity: Diagnostic.Severity, _ code: String, _ message: String, at pointer: JSONPointer) {
        diagnostics.append(loaded.diagnostic(severity, code, message, at: pointer))
    }

    mutating func run() {
        checkStaleTests()
        checkUnusedApps()
        checkSchemes()
        checkShadowedRedirects()
    }

    /// A test input that the rule's regex cannot match while some format expects a URL for it can never pass:
    /// the site changed its links, or the regex was narrowed without updating the tests.
    mutating func checkStaleTests() {
        for compiled in rules.actions {
            let action = compiled.action
            for (index, input) in action.testInputs.enumerated() where !compiled.regex.matches(input) {
                let expecting = action.formats.compactMap { format -> String? in
                    guard let results = format.testResults, results.indices.contains(index), results[index] != nil
                    else { return nil }
                    return format.appId
                }
                guard !expecting.isEmpty else { continue }
                report(
                    .error,
                    "E_STALE_TEST",
                    "test input \(index) \"\(Self.excerpt(input))\" expects a URL for \(expecting.joined(separator: ", ")), but the action's regex cannot match it: the test or the regex is stale",
                    at: action.pointer.appending("testInputs").appending(index)
                )
            }
        }
        for compiled in rules.browsers {
            let browser = compiled.browser
            guard let results = browser.testResults else { continue }
            for (index, input) in browser.testInputs.enumerated()
            where results.indices.contains(index) && results[index] != nil && !compiled.regex.matches(input) {
                report(
                    .error,
                    "E_STALE_TEST",
                    "test input \(index) \"\(Self.excerpt(input))\" expects a URL, but the browser's regex cannot match it",
                    at: browser.pointer.appending("testInputs").appending(index)
                )
            }
        }
    }

    /// Apps that no format refers to: dead entries, or a format whose `appId` has a typo.
    mutating func checkUnusedApps() {
        var used = Set<String>()
        for action in loaded.manifest.actions {
            for format in action.formats { used.insert(format.appId) }
        }
        for format in Self.rawFormatAppIds(loaded.root) { used.insert(format) }
        for app in loaded.manifest.apps where !used.contains(app.identifier) {
            report(.warning, "W_UNUSED_APP", "no format uses the app \"\(app.identifier)\"", at: app.pointer)
        }
    }

    /// Every `appId`/`appIdentifier` written in the file, including formats the loader rejected for other reasons.
    static func rawFormatAppIds(_ root: JSONNode?) -> [String] {
        (root?["actions"]?.elements ?? []).flatMap { action in
            (action["formats"]?.elements ?? []).compactMap { ($0["appId"] ?? $0["appIdentifier"])?.stringValue }
        }
    }

    /// An output URL whose scheme the app does not declare will not open that app (or opens another one).
    mutating func checkSchemes() {
        for compiled in rules.actions {
            for format in compiled.formats {
                checkScheme(
                    of: format.output,
                    expected: format.format.testResults ?? [],
                    app: format.app,
                    at: format.format.pointer
                )
            }
        }
        for compiled in rules.browsers {
            checkScheme(
                of: compiled.output,
                expected: compiled.browser.testResults ?? [],
                app: compiled.browser.app,
                at: compiled.browser.pointer
            )
        }
    }

    mutating func checkScheme(of output: Output, expected: [String?], app: App, at pointer: JSONPointer) {
        let declared = Self.bareScheme(app.scheme)
        guard !declared.isEmpty else { return }
        switch output {
        case .template(let template):
            guard let scheme = OutputSafety.leadingScheme(of: template), !Self.sameScheme(scheme.lowercased(), declared)
            else { return }
            report(
                .warning,
                "W_SCHEME_MISMATCH",
                "the template produces \"\(scheme):\" URLs but the app \"\(app.identifier)\" declares the scheme \"\(declared)\"",
                at: pointer.appending("format")
            )
        case .script(_, let legacy):
            let schemes = Set(expected.compactMap { $0.flatMap(OutputSafety.leadingScheme(of:))?.lowercased() })
            guard let other = schemes.sorted().first(where: { !Self.sameScheme($0, declared) }) else { return }
            report(
                .warning,
                "W_SCHEME_MISMATCH",
                "the script's expected results use \"\(other):\" URLs but the app \"\(app.identifier)\" declares the scheme \"\(declared)\"",
                at: pointer.appending(legacy ? "script" : "script2")
            )
        }
    }

    /// Equal, or both web schemes (a browser declared as `https` also opens `http` links).
    static func sameScheme(_ lhs: String, _ rhs: String) -> Bool {
        lhs == rhs || (["http", "https"].contains(lhs) && ["http", "https"].contains(rhs))
    }

    /// `twitter`, from `twitter`, `twitter:` or `twitter://`, lowercased.
    static func bareScheme(_ scheme: String) -> String {
        var bare = Substring(scheme)
        if bare.hasSuffix("://") { bare = bare.dropLast(3) } else if bare.hasSuffix(":") { bare = bare.dropLast() }
        return bare.lowercased()
    }

    /// Rules apply first-match-wins in file order: a rule whose own test input an earlier rule takes never runs on it.
    mutating func checkShadowedRedirects() {
        for compiled in rules.redirects {
            let rule = compiled.rule
            for test in rule.tests where compiled.regex.firstMatchAtStart(of: test.input) != nil {
                guard let link = try? Link(test.input), let applied = rules.unwrap(link).steps.first?.rule,
                    applied != rule.pattern
                else { continue }
                report(
                    .warning,
                    "W_REDIRECT_SHADOWED",
                    "the test input \"\(Self.excerpt(test.input))\" is taken by the earlier rule \"\(applied)\", so this rule never applies to it",
                    at: rule.pointer.appending("tests").appending(test.input)
                )
            }
        }
    }

    static func excerpt(_ text: String) -> String {
        text.count > 80 ? String(text.prefix(77)) + "…" : text
    }
}
