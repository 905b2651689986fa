import Foundation
import SwitchyardTestSupport

/// Runs the built `switchyard` binary of the package under test and captures what it printed: for the end-to-end
/// runs, where the process itself (`main`, its streams, its exit, a terminal) is the point. Everything else runs in
/// process through ``InProcessCommand``.
enum SwitchyardProcess {
    /// Why a run could not happen.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The binary beside the test bundle: `swift test` puts both in `.build/<triple>/<configuration>/`, so the
    /// configuration is never hard-coded. The package-root fallbacks cover runners that move the bundle.
    static var binaryURL: URL { builtProduct("switchyard") }

    /// An executable the package builds (the CLI, a documentation snippet), found as ``binaryURL`` is.
    static func builtProduct(_ name: String) -> URL {
        let bundle = Bundle.main.bundleURL
        var candidates = [
            bundle.appendingPathComponent(name),
            bundle.deletingLastPathComponent().appendingPathComponent(name),
        ]
        if let executable = Bundle.main.executableURL {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent(name))
        }
        for configuration in ["debug", "release"] {
            candidates.append(SharedData.packageRoot.appendingPathComponent(".build/\(configuration)/\(name)"))
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    /// Runs `switchyard arguments…` (see ``run(executable:arguments:timeout:)``).
    static func run(_ arguments: [String], timeout: Duration = .seconds(120)) async throws -> CommandOutcome {
        let binary = binaryURL
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw Failure(description: "the switchyard binary was not built: looked for \(binary.path)")
        }
        return try await run(executable: binary, arguments: arguments, timeout: timeout)
    }

    /// Runs any program with no input, in `workingDirectory` (default: the test's), with `environment` added to the test's
    /// own; output goes to temporary files so large outputs cannot block on a full pipe, and the wait sleeps the task
    /// rather than blocking a thread of the Swift concurrency pool the tests share.
    static func run(
        executable: URL,
        arguments: [String],
        environment: [String: String] = [:],
        workingDirectory: URL? = nil,
        timeout: Duration = .seconds(120)
    ) async throws -> CommandOutcome {
        let directory = try TemporaryDirectory()
        let stdoutURL = directory.url.appendingPathComponent("stdout")
        let stderrURL = directory.url.appendingPathComponent("stderr")
        for url in [stdoutURL, stderrURL] where !FileManager.default.createFile(atPath: url.path, contents: nil) {
            throw Failure(description: "cannot create the capture file \(url.path)")
        }
        let stdout = try FileHandle(forWritingTo: stdoutURL)
        let stderr = try FileHandle(forWritingTo: stderrURL)
        defer {
            try? stdout.close()
            try? stderr.close()
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw Failure(
                description:
                    "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) did not finish within \(timeout)"
            )
        }
        process.waitUntilExit()
        return CommandOutcome(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: stdoutURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: stderrURL), as: UTF8.self)
        )
    }
}

/// A fresh directory under the system's temporary folder, removed when the value is released.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `text` to a file in the directory and returns its path.
    func write(_ text: String, named name: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

/// The built binary with its standard input and output as pipes, for a test that talks to it a line at a time (a
/// batch that must answer each line before the input ends). Standard error goes to a temporary file.
final class InteractiveSwitchyard: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors: URL
    private let directory: TemporaryDirectory
    private var pending = Data()

    init(_ arguments: [String]) throws {
        directory = try TemporaryDirectory()
        errors = directory.url.appendingPathComponent("stderr")
        guard FileManager.default.createFile(atPath: errors.path, contents: nil) else {
            throw SwitchyardProcess.Failure(description: "cannot create the capture file \(errors.path)")
        }
        process.executableURL = SwitchyardProcess.binaryURL
        process.arguments = arguments
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
    }

    /// Writes `text` to the process's standard input (the pipe stays open).
    func write(_ text: String) throws {
        try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
    }

    /// Ends the process's standard input.
    func closeInput() throws {
        try input.fileHandleForWriting.close()
    }

    /// The next line of standard output, waiting until it is written (nil at its end). A process that writes
    /// nothing for `timeout` is stopped, so a test that expects a line it never gets fails instead of hanging.
    func readLine(timeout: Duration = .seconds(60)) async -> String? {
        let process = process
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            process.terminate()
        }
        defer { watchdog.cancel() }
        let handle = output.fileHandleForReading
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                return line
            }
            // availableData blocks a thread until bytes arrive: on a thread of its own, not the test's pool.
            let chunk = await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume(returning: handle.availableData) }
            }
            if chunk.isEmpty { return nil }
            pending.append(chunk)
        }
    }

    /// Waits for the process to end and returns its status and standard error.
    func finish() async throws -> (status: Int32, stderr: String) {
        while process.isRunning { try await Task.sleep(for: .milliseconds(20)) }
        return (process.terminationStatus, String(decoding: try Data(contentsOf: errors), as: UTF8.self))
    }
}
