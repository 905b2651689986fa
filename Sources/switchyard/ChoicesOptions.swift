import AppChooser
import ArgumentParser
import Foundation
import LinkMatching
import LinkRules

/// `--choices FILE`: the choices remembered with `switchyard choose --remember-site`, applied to what `resolve` and
/// `explain` print (the remembered app's openings marked preferred, or a warning when it is unavailable).
struct ChoicesOptions: ParsableArguments {
    @Option(
        name: .customLong("choices"),
        help: ArgumentHelp(
            "The SQLite file of remembered choices (default: the one choose writes, when it exists; never created by resolving).",
            valueName: "file"
        ),
        completion: .file(extensions: ["sqlite"])
    )
    var path: String?

    /// The store to apply: `--choices`'s file (which must exist), else the default file when there is one, else nil.
    func open() throws(CommandFailure) -> ChoicesStore? {
        let path = self.path ?? ChooseCommand.defaultStorePath
        if self.path == nil, !FileManager.default.fileExists(atPath: path) { return nil }
        do {
            try UserFile.requireFile(path)
        } catch {
            throw CommandFailure(error, what: "choices store")
        }
        do {
            return try ChoicesStore(path: path, createIfMissing: false)
        } catch {
            throw CommandFailure(message: "error: \(error.description)")
        }
    }
}

extension CommandOutput {
    /// Each notice of a resolution as a `warning: message [code]` line on standard error.
    func printNotices(of resolution: Resolution) {
        for notice in resolution.notices { printError("warning: \(notice)") }
    }
}
