import AppChooser
import ArgumentParser
import Foundation
import LinkMatching
import LinkResolver
import LinkRules

/// `--choices FILE` and `--no-choices`: the choices remembered with `switchyard choose --remember-site`, applied to
/// what `resolve` and `explain` print (the remembered app's openings marked preferred, or a warning when it is
/// unavailable).
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

    @Flag(name: .customLong("no-choices"), help: "Resolve without the remembered choices, even when the store exists.")
    var noChoices = false

    func validate() throws {
        if path != nil && noChoices { throw ValidationError("--choices and --no-choices cannot be used together") }
    }

    /// The decision stage to run: `--choices`'s file (which must exist), else the default file when there is one,
    /// else nil (and nil with `--no-choices`). A store that exists but cannot be opened (not a database, damaged,
    /// locked) is no reason to stop: its stage adds the notice `E_CHOICES_UNREADABLE`, printed as a warning, and the
    /// resolution goes on without remembered choices.
    func stage() throws(CommandFailure) -> (any OpeningDecisionStage)? {
        guard !noChoices else { return nil }
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
            return UnreadableChoicesStore(
                message:
                    "the choices store \(path) cannot be opened (\(Self.reason(error))), so no remembered choice is applied; --no-choices resolves without it"
            )
        }
    }

    /// Why the store could not be opened, without what was being done (`the file is not a SQLite database`).
    private static func reason(_ error: ChooserError) -> String {
        let prefix = "cannot open the choices store: "
        return error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : error.message
    }
}

extension CommandOutput {
    /// Each notice of a resolution as a `warning: message [code]` line on standard error.
    func printNotices(of resolution: Resolution) {
        for notice in resolution.notices { printError("warning: \(notice)") }
    }
}
