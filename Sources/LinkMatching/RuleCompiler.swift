import Foundation
import LinkRules

/// Compiles each rule's regex once and checks its templates against it, collecting diagnostics.
struct RuleCompiler {
    let loaded: LoadedManifest
    /// Parses scripts (nil: scripts are kept unchecked).
    let scriptChecker: (any ScriptChecking)?
    /// The layer the rules belong to (nil: the manifest).
    let layer: RuleLayer?
    private(set) var diagnostics: [Diagnostic] = []

    init(loaded: LoadedManifest, scriptChecker: (any ScriptChecking)?, layer: RuleLayer? = nil) {
        self.loaded = loaded
        self.scriptChecker = scriptChecker
        self.layer = layer
    }

    mutating func report(_ severity: Diagnostic.Severity, _ code: String, _ message: String, at pointer: JSONPointer) {
        diagnostics.append(loaded.diagnostic(severity, code, message, at: pointer))
    }

    mutating func regex(_ pattern: String, at pointer: JSONPointer) -> CompiledRegex? {
        do {
            let regex = try CompiledRegex(pattern)
            if RedosHeuristic.isSuspicious(pattern) {
                report(
                    .warning,
                    "W_REDOS_SUSPECT",
                    "the regex nests repetition (as in (a+)+), which can take exponential time on some inputs; it runs under a time budget",
                    at: pointer
                )
            }
            return regex
        } catch {
            report(
                .error,
                "E_REGEX",
                "ICU cannot compile the regex \"\(pattern)\": \(error.reason); this rule is ignored",
                at: pointer
            )
            return nil
        }
    }

    /// Checks `$N` references: a group the regex lacks is an error (Foundation would silently render ""), `$22`
    /// read as `$2` + `2` (the regex has fewer than ten groups) is a warning.
    mutating func checkTemplate(_ output: Output, regex: CompiledRegex, at pointer: JSONPointer) -> Bool {
        guard case .template(let template) = output else { return true }
        for reference in TemplateReferences.references(in: template, groupCount: regex.groupCount) {
            if reference.group > regex.groupCount {
                report(
                    .error,
                    "E_GROUP_REF",
                    "the template \"\(template)\" uses $\(reference.group) but the regex has only \(regex.groupCount, "capture group"); this entry is ignored",
                    at: pointer
                )
                return false
            }
            if reference.isAmbiguous {
                report(
                    .warning,
                    "W_AMBIGUOUS_GROUP_REF",
                    "in \"\(template)\", $\(reference.digits)\(reference.followingDigits) is read as group \(reference.group) followed by the text \"\(reference.followingDigits)\"; write \\ before the digits to make that explicit",
                    at: pointer
                )
            }
        }
        return true
    }

    /// Checks a script with the rule set's ``ScriptChecking`` (no code runs): a script that cannot work is left out at
    /// load, like a regex that does not compile.
    mutating func checkScript(_ output: Output, at pointer: JSONPointer) -> Bool {
        guard case .script(let source, let legacy) = output, let scriptChecker else { return true }
        guard let problem = scriptChecker.problem(in: source) else { return true }
        let key = pointer.appending(legacy ? "script" : "script2")
        switch problem.kind {
        case .syntax:
            let line = problem.line.map { " on script line \($0)" } ?? ""
            report(
                .error,
                problem.kind.rawValue,
                "the script has a syntax error\(line): \(problem.message); this entry is ignored",
                at: key
            )
        case .noProcess:
            report(
                .error,
                problem.kind.rawValue,
                "the script defines no function process(url, completionHandler); this entry is ignored",
                at: key
            )
        }
        return false
    }

    mutating func compile(_ action: Action, appsById: [String: App]) -> CompiledAction? {
        guard let regex = regex(action.regex, at: action.pointer.appending("regex")) else { return nil }
        var formats: [CompiledFormat] = []
        for format in action.formats {
            guard let app = format.inlineApp ?? appsById[format.appId], let output = format.fields.output else {
                continue
            }
            let templatePointer = format.pointer.appending("format")
            guard checkTemplate(output, regex: regex, at: templatePointer), checkScript(output, at: format.pointer)
            else { continue }
            formats.append(
                CompiledFormat(
                    format: format,
                    app: app,
                    output: output,
                    groupCount: regex.groupCount,
                    matchesHeaders: action.headers,
                    layer: layer
                )
            )
        }
        return CompiledAction(action: action, regex: regex, formats: formats, layer: layer)
    }

    mutating func compile(_ browser: Browser) -> CompiledBrowser? {
        guard let regex = regex(browser.regex, at: browser.pointer.appending("regex")),
            let output = browser.fields.output,
            checkTemplate(output, regex: regex, at: browser.pointer.appending("format")),
            checkScript(output, at: browser.pointer)
        else { return nil }
        return CompiledBrowser(
            browser: browser,
            regex: regex,
            output: output,
            script: RuleScript(output, rule: browser.pointer, matchesHeaders: false)
        )
    }

    mutating func compile(_ preview: Preview) -> CompiledPreview? {
        guard let regex = regex(preview.regex, at: preview.pointer.appending("regex")),
            let output = preview.fields.output,
            checkTemplate(output, regex: regex, at: preview.pointer.appending("format")),
            checkScript(output, at: preview.pointer)
        else { return nil }
        return CompiledPreview(preview: preview, regex: regex, output: output)
    }

    mutating func compile(_ rule: RedirectRule) -> CompiledRedirect? {
        guard let regex = regex(rule.pattern, at: rule.pointer) else { return nil }
        if case .format(let template) = rule.target,
            !checkTemplate(.template(template), regex: regex, at: rule.pointer.appending("format"))
        {
            return nil
        }
        return CompiledRedirect(rule: rule, regex: regex, layer: layer)
    }
}
