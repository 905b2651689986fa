import Foundation

/// A folder of the test's own under the temporary directory, removed with everything in it when the value goes: what
/// a test writes stays inside it, so nothing outside the clone is left changed.
public final class TemporaryFolder: Sendable {
    /// The folder.
    public let url: URL

    /// Makes a new, empty folder.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("switchyard-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// The path of `name` in the folder.
    public func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Writes `text` to `name` in the folder and returns its path.
    @discardableResult
    public func write(_ text: String, named name: String) throws -> String {
        try Data(text.utf8).write(to: url.appendingPathComponent(name))
        return path(name)
    }

    /// The names in the folder, sorted.
    public var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
