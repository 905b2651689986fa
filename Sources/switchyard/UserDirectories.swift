import Foundation

/// The user's base directories as the XDG Base Directory specification names them, for what the tool keeps
/// between runs.
enum UserDirectories {
    /// `$XDG_CACHE_HOME`, else `~/.cache`: downloads that can be fetched again.
    static var cache: URL { directory("XDG_CACHE_HOME", default: ".cache") }

    /// `$XDG_DATA_HOME`, else `~/.local/share`: what the user chose and expects to find again.
    static var data: URL { directory("XDG_DATA_HOME", default: ".local/share") }

    private static func directory(_ variable: String, default relativePath: String) -> URL {
        // The specification treats an empty value as unset.
        ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(relativePath)
    }
}
