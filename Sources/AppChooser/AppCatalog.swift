import Foundation
import LinkRules

/// App types (Twitter clients, browsers, mail apps …) with app-agnostic actions and parameters, and for each app
/// how an action becomes its URL — Choosy's data model, read from its JSON format.
public struct AppCatalog: Sendable, Equatable {
    /// App types by key, in catalog order.
    public private(set) var types: [AppType]

    /// Creates a catalog.
    public init(types: [AppType] = []) {
        self.types = types
    }

    /// The type with this key (case-insensitive: Choosy's callers write "Twitter" or "twitter").
    public func type(_ key: String) -> AppType? {
        types.first { $0.key.caseInsensitiveCompare(key) == .orderedSame }
    }

    /// The type with this key, or ``ChooserError/Code/unknownType`` with the closest key and the keys the catalog has.
    public func requireType(_ key: String) throws(ChooserError) -> AppType {
        guard let type = type(key) else {
            let keys = types.map(\.key)
            throw ChooserError(
                .unknownType,
                "no app type \"\(key.prefix(100))\"\(Self.suggestion(for: key, among: keys)) (known: \(keys.joined(separator: ", ")))"
            )
        }
        return type
    }

    /// `; did you mean "maps"?` for the known key closest to a misspelt one, or nothing.
    static func suggestion(for key: String, among keys: [String]) -> String {
        KeySuggestion.closest(to: key, among: Set(keys)).map { "; did you mean \"\($0)\"?" } ?? ""
    }

    /// Reads Choosy's JSON: an array of app types (or one app type object).
    public static func decode(_ data: Data, source: String) throws(ChooserError) -> AppCatalog {
        do {
            if let list = try? JSONDecoder().decode([AppType].self, from: data) { return AppCatalog(types: list) }
            return AppCatalog(types: [try JSONDecoder().decode(AppType.self, from: data)])
        } catch {
            throw ChooserError(.invalidCatalog, "not Choosy app-type data (\(Self.describe(error)))", file: source)
        }
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            return "missing \"\(key.stringValue)\" at \(context.codingPath.map(\.stringValue).joined(separator: "/"))"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "/"))"
        case DecodingError.dataCorrupted(let context):
            // Foundation's words ("The given data was not valid JSON.") stay out of the message.
            return context.codingPath.isEmpty
                ? "invalid JSON" : "invalid value at \(context.codingPath.map(\.stringValue).joined(separator: "/"))"
        default:
            return "unreadable"
        }
    }

    /// This catalog with `downloaded` merged over it, as Choosy does: downloaded data wins per key (types, and
    /// within a type its parameters, actions and apps; within an app its action formats).
    public func merging(_ downloaded: AppCatalog) -> AppCatalog {
        var result = types
        for type in downloaded.types {
            if let index = result.firstIndex(where: { $0.key.caseInsensitiveCompare(type.key) == .orderedSame }) {
                result[index] = result[index].merging(type)
            } else {
                result.append(type)
            }
        }
        return AppCatalog(types: result)
    }

    /// Switchyard's own bundled catalog (system apps and common types), written by the team.
    public static func bundled() throws(ChooserError) -> AppCatalog {
        guard let url = Bundle.module.url(forResource: "catalog", withExtension: "json"),
            let data = try? Data(contentsOf: url)
        else {
            throw ChooserError(.invalidCatalog, "the bundled catalog.json is missing from the build")
        }
        return try decode(data, source: "bundled catalog.json")
    }

    /// The catalog in a Choosy data folder: `systemAppTypes.json` merged with every `app-data/*.json` over it.
    public static func load(directory: URL) throws(ChooserError) -> AppCatalog {
        let fileManager = FileManager.default
        var catalog = AppCatalog()
        let system = directory.appendingPathComponent("systemAppTypes.json")
        if let data = fileManager.contents(atPath: system.path) {
            catalog = try decode(data, source: system.relativePath)
        }
        let appData = directory.appendingPathComponent("app-data")
        let files = ((try? fileManager.contentsOfDirectory(atPath: appData.path)) ?? []).filter {
            $0.hasSuffix(".json")
        }.sorted()
        guard fileManager.fileExists(atPath: system.path) || !files.isEmpty else {
            throw ChooserError(
                .invalidCatalog,
                "the catalog folder has no systemAppTypes.json and no app-data/*.json",
                file: directory.relativePath
            )
        }
        for file in files {
            let url = appData.appendingPathComponent(file)
            guard let data = fileManager.contents(atPath: url.path) else { continue }
            catalog = catalog.merging(try decode(data, source: url.relativePath))
        }
        return catalog
    }
}
