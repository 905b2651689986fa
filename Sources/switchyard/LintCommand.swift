import ArgumentParser
import BundledRules
import Foundation
import LinkMatching
import LinkResolver
import LinkRules
import RuleTooling

/// `switchyard lint [PATH]`: every problem in a manifest in one pass.
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract:
            "Report every problem in a manifest: JSON, types, unknown keys, regexes, templates, scripts, stale tests.",
        discussion:
            "Each line is file:line:column: severity: message [CODE at /json/pointer]. Exits 1 when there are errors, 0 otherwise."
    )

    @Argument(help: "The manifest to lint (default: the bundled rules).", completion: .file(extensions: ["json"]))
    var path: String?

    @Flag(help: "Print one JSON object: {file, errorCount, warningCount, diagnostics: [...]}.")
    var json = false

    @Flag(help: "Print only errors.")
    var errorsOnly = false

    @Option(
        name: .customLong("user-layer"),
        help: ArgumentHelp(
            "Lint this user layer file instead, as applied over the manifest (PATH or the bundled rules): it warns about entries the manifest no longer has.",
            valueName: "path"
        ),
        completion: .file(extensions: ["json"])
    )
    var userLayer: String?

    @Option(
        help: ArgumentHelp(
            "Lint this apple-app-site-association file instead: unreachable components, exclusions after a catch-all, non-string query values, appID beside appIDs, undefined variables, over 128 KiB.",
            valueName: "file"
        ),
        completion: .file()
    )
    var aasa: String?

    func run() throws {
        if let aasa { return try lintAssociation(aasa) }
        let report: LintReport
        if let userLayer {
            let rules: RuleSet
            if let path {
                do {
                    rules = RuleSet(try ManifestLoader().load(contentsOf: URL(fileURLWithPath: path)))
                } catch {
                    throw CommandFailure(message: error.description)
                }
            } else {
                rules = RuleSet(try RuleSet.bundledManifest())
            }
            report = RuleLinter().lint(userLayer: userLayer, over: rules)
        } else if let path {
            // A file that cannot be read is unusable input (status 2), like everywhere else; what is in it is linted.
            let bytes: Data
            do {
                bytes = try UserFile.read(path, maximumBytes: ManifestLimits().maximumBytes)
            } catch {
                throw CommandFailure(error, what: "manifest")
            }
            report = RuleLinter().lint(Array(bytes), file: path)
        } else {
            report = RuleLinter().lint(try RuleSet.bundledManifest())
        }
        let output = CommandOutput.current
        let shown = errorsOnly ? report.diagnostics.filter { $0.severity == .error } : report.diagnostics
        if json {
            try output.printJSON(LintReport(file: report.file, diagnostics: shown))
        } else {
            for diagnostic in shown { output.print(diagnostic.description) }
            output.print(
                "\(report.file ?? "manifest"): \(report.errorCount, "error"), \(report.warningCount, "warning")"
            )
        }
        if report.errorCount > 0 { throw ExitCode(1) }
    }
}
