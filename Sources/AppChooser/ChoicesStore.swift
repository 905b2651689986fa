import Foundation
import GRDB

/// The user's default app per app type, in a SQLite file (GRDB): which app, and which apps of the type were
/// installed when it was chosen (so a newly installed one can prompt again, as Choosy does).
public final class ChoicesStore: Sendable {
    /// A remembered choice.
    public struct Choice: Sendable, Equatable {
        /// The app type's key, lower-cased.
        public var appType: String
        /// The key of the app chosen as the default.
        public var app: String
        /// The keys of the type's apps that were installed when the default was chosen.
        public var knownApps: Set<String>
        /// When the default was chosen.
        public var chosenAt: Date
    }

    private let database: DatabaseQueue

    /// Opens (creating when needed) the store at `path`.
    public init(path: String) throws(ChooserError) {
        do {
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: path).deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            database = try DatabaseQueue(path: path)
            var migrator = DatabaseMigrator()
            migrator.registerMigration("v1") { db in
                try db.create(table: "defaultApp") { table in
                    table.primaryKey("appType", .text)
                    table.column("app", .text).notNull()
                    table.column("knownApps", .text).notNull()
                    table.column("chosenAt", .double).notNull()
                }
            }
            try migrator.migrate(database)
        } catch {
            throw ChooserError(.store, "\(path): cannot open the choices database (\(error))")
        }
    }

    /// The default for a type, if one was chosen.
    public func choice(for appType: String) throws(ChooserError) -> Choice? {
        do {
            return try database.read { db in
                guard
                    let row = try Row.fetchOne(
                        db,
                        sql: "SELECT app, knownApps, chosenAt FROM defaultApp WHERE appType = ?",
                        arguments: [appType.lowercased()]
                    )
                else { return nil }
                let known: String = row["knownApps"]
                let apps = (try? JSONDecoder().decode([String].self, from: Data(known.utf8))) ?? []
                return Choice(
                    appType: appType.lowercased(),
                    app: row["app"],
                    knownApps: Set(apps),
                    chosenAt: Date(timeIntervalSince1970: row["chosenAt"])
                )
            }
        } catch {
            throw ChooserError(.store, "cannot read the default for \"\(appType)\" (\(error))")
        }
    }

    /// Remembers `app` as the default for `appType`, with the apps installed now.
    public func setDefault(appType: String, app: String, installedApps: Set<String>) throws(ChooserError) {
        do {
            let known = String(decoding: try JSONEncoder().encode(installedApps.sorted()), as: UTF8.self)
            try database.write { db in
                try db.execute(
                    sql: "INSERT OR REPLACE INTO defaultApp (appType, app, knownApps, chosenAt) VALUES (?, ?, ?, ?)",
                    arguments: [appType.lowercased(), app, known, Date().timeIntervalSince1970]
                )
            }
        } catch {
            throw ChooserError(.store, "cannot save the default for \"\(appType)\" (\(error))")
        }
    }

    /// Forgets the default for `appType` (Choosy's long press).
    public func reset(appType: String) throws(ChooserError) {
        do {
            try database.write { db in
                try db.execute(sql: "DELETE FROM defaultApp WHERE appType = ?", arguments: [appType.lowercased()])
            }
        } catch {
            throw ChooserError(.store, "cannot reset the default for \"\(appType)\" (\(error))")
        }
    }
}
