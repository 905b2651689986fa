import ArgumentParser
import DomainClaims
import Foundation
import LinkRules

extension LintCommand {
    /// `lint --aasa FILE`: every diagnostic of an AASA file, `file:line:column: warning: message [CODE at /pointer]`;
    /// exits 1 when there are errors (text that is not JSON, a file that is not an object).
    func lintAssociation(_ path: String) throws {
        let data: Data
        do {
            data = try UserFile.read(path, maximumBytes: 16 << 20)
        } catch {
            throw CommandFailure(error, what: "AASA file")
        }
        let diagnostics: [Diagnostic]
        do {
            diagnostics = try AASALinter().lint(data)
        } catch {
            diagnostics = [error.diagnostic]
        }
        let shown = errorsOnly ? diagnostics.filter { $0.severity == .error } : diagnostics
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.count - errors
        let output = CommandOutput.current
        if json {
            try output.printJSON(
                AssociationLintReport(file: path, errorCount: errors, warningCount: warnings, diagnostics: shown)
            )
        } else {
            for diagnostic in shown { output.print(diagnostic.description(file: path)) }
            output.print("\(path): \(errors, "error"), \(warnings, "warning")")
        }
        if errors > 0 { throw ExitCode(1) }
    }
}

/// `lint --aasa FILE --json`.
private struct AssociationLintReport: Encodable {
    var file: String
    var errorCount: Int
    var warningCount: Int
    var diagnostics: [Diagnostic]
}
