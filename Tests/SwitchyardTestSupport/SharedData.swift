import Foundation
import Testing

/// Locates the read-only reference data in `../shared/data` beside the package (never copied into the repo).
///
/// `SWITCHYARD_SHARED_DATA` overrides the folder. On CI (`CI=true`) the data must be present, so a missing folder
/// is reported by ``isAvailable`` being false and tests that need it fail loudly through ``requireOnCI()``.
public enum SharedData {
    /// The package root, derived from this file's location (Tests/SwitchyardTestSupport/SharedData.swift).
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `shared/data` folder, if it exists.
    public static let directory: URL? = {
        let environment = ProcessInfo.processInfo.environment
        let candidate =
            environment["SWITCHYARD_SHARED_DATA"].map { URL(fileURLWithPath: $0) }
            ?? packageRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), isDirectory.boolValue
        else { return nil }
        return candidate.standardizedFileURL
    }()

    /// Whether the reference data can be read. On CI it must be; see ``skipReason``.
    public static var isAvailable: Bool { directory != nil || isCI }

    /// True when running under CI, where a missing data folder is an error rather than a skip.
    public static let isCI: Bool = ProcessInfo.processInfo.environment["CI"] == "true"

    /// The message shown for tests disabled because the data is absent.
    public static let skipReason: Comment =
        "../shared/data is absent (set SWITCHYARD_SHARED_DATA); reference-data tests skipped"

    /// The URL of a file in the data folder, or nil when the folder is absent.
    public static func url(_ name: String) -> URL? {
        directory?.appendingPathComponent(name)
    }

    /// The contents of a file in the data folder; throws when missing (on CI this makes the test fail).
    public static func data(_ name: String) throws -> Data {
        guard let url = url(name) else {
            throw SharedDataMissing(name: name)
        }
        return try Data(contentsOf: url)
    }
}

/// Thrown when a reference file is needed but `../shared/data` is absent.
public struct SharedDataMissing: Error, CustomStringConvertible {
    /// The file that was asked for.
    public let name: String
    /// A one-line explanation.
    public var description: String { "reference file '\(name)' not found: ../shared/data is absent beside the package" }
}

/// The hostile-input catalogue (`bad-inputs.json`), read at test time.
public enum BadInputs {
    /// The cases of one area (`manifest`, `input`, `script`, `x-callback`, …) as parsed JSON objects, in file
    /// order; empty when the data folder is absent (the tests using them are disabled then).
    public static func cases(area: String) -> [[String: Any]] {
        guard let data = try? SharedData.data("bad-inputs.json"),
            let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let list = root["cases"] as? [[String: Any]]
        else { return [] }
        return list.filter { $0["area"] as? String == area }
    }
}
