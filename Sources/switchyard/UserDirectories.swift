import Foundation

/// The user's base directories as the XDG Base Directory specification names them, for what the tool keeps
/// between runs, read from the environment of the run (``current``), never from the process directly, so a test can
/// give one run its own.
struct UserDirectories: Sendable {
    /// The environment variables the directories come from.
    var environment: [String: String]

    /// The directories of the command running in this task (``Switchyard/execute(_:environment:)`` binds them).
    @TaskLocal static var current = UserDirectories(environment: ProcessInfo.processInfo.environment)

    /// `$XDG_CACHE_HOME`, else `$HOME/.cache`: downloads that can be fetched again.
    var cache: URL { directory("XDG_CACHE_HOME", default: ".cache") }

    /// `$XDG_DATA_HOME`, else `$HOME/.local/share`: what the user chose and expects to find again.
    var data: URL { directory("XDG_DATA_HOME", default: ".local/share") }

    /// `$XDG_CONFIG_HOME`, else `$HOME/.config`: what the user writes to configure the tool (the user layer).
    var config: URL { directory("XDG_CONFIG_HOME", default: ".config") }

    /// `$HOME`, else the account's home folder.
    var home: URL {
        value("HOME").map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
    }

    /// The variable's folder; the specification ignores a relative path there, as if the variable were unset.
    private func directory(_ variable: String, default relativePath: String) -> URL {
        value(variable).flatMap { $0.hasPrefix("/") ? $0 : nil }.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? home.appendingPathComponent(relativePath, isDirectory: true)
    }

    /// The variable's value; the specification treats an empty value as unset.
    private func value(_ variable: String) -> String? {
        environment[variable].flatMap { $0.isEmpty ? nil : $0 }
    }
}
