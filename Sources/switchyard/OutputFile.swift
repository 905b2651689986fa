import Foundation

/// Output files written whole or not at all: Foundation's atomic write puts the text in a temporary file and renames
/// it over the target, so a failure never leaves half a manifest behind.
enum OutputFile {
    /// Writes `text` to `path`, replacing what was there; a failure names the path and says why in Switchyard's words.
    static func write(_ text: String, to path: String) throws(CommandFailure) {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CommandFailure(message: "\(path): error: cannot write the file: \(reason(for: error))")
        }
    }

    /// Why a write failed, from the system's error number when Foundation passes it on (never Foundation's text).
    static func reason(for error: any Error) -> String {
        let cocoa = error as? CocoaError
        switch (cocoa?.underlying as? POSIXError)?.code {
        case .ENOENT?: return "its folder does not exist"
        case .ENOTDIR?: return "part of the path is a file, not a folder"
        case .EISDIR?: return "it is a folder"
        case .EACCES?, .EPERM?: return "no permission to write there"
        case .ENOSPC?, .EDQUOT?: return "the disk is full"
        case .EROFS?: return "the file system is read-only"
        default: break
        }
        switch cocoa?.code {
        case .fileNoSuchFile?: return "its folder does not exist"
        case .fileWriteNoPermission?: return "no permission to write there"
        case .fileWriteOutOfSpace?: return "the disk is full"
        case .fileWriteVolumeReadOnly?: return "the file system is read-only"
        default: return "the file system refused it"
        }
    }
}
