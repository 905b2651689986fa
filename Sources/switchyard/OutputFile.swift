import WebLinks

/// The files and folders a command writes (`-o`, `--junit`, the saved cleaning catalog, `--record`'s folder), through
/// the one writer (`UserFile.write`): a regular file replaced atomically with its mode kept, a link followed, a device
/// or FIFO written through, a folder refused; a failure is `PATH: error: the WHAT REASON`, status 2.
enum OutputFile {
    /// Writes `text` to `path`; `what` names the file in an error (`the output file cannot be written: …`).
    static func write(_ text: String, to path: String, what: String = "output file") throws(CommandFailure) {
        do {
            try UserFile.write(text, to: path)
        } catch {
            throw CommandFailure(error, what: what)
        }
    }

    /// Creates the folder at `path` and those missing above it; `what` names it in an error.
    static func createDirectory(_ path: String, what: String) throws(CommandFailure) {
        do {
            try UserFile.createDirectory(path)
        } catch {
            throw CommandFailure(error, what: what)
        }
    }
}
