import Foundation
import GRDB
import WebLinks

/// What the user chose, in a SQLite file (GRDB): the default app per app type, with the apps of the type that were
/// installed when it was chosen (so a newly installed one can prompt again, as Choosy does), and the app remembered
/// per site (``SiteChoice``, in `ChoicesStore+Sites.swift`).
///
/// The schema grows by migrations that are never edited: `v1` (per-type defaults), `v2` (site choices). A file
/// written by an older Switchyard is migrated when it is opened.
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

    /// The file's path, as given: every error names it.
    public let path: String
    let database: DatabaseQueue

    /// Opens the store at `path`, migrating an older schema. A missing file is created unless `createIfMissing` is
    /// false, when it is an error (a resolution only reads what the user remembered). Its missing folders are created
    /// too unless `createsFolders` is false: the command line gives false for a path the user typed, whose missing
    /// folder is a typo to report rather than a folder tree to make.
    public init(path: String, createIfMissing: Bool = true, createsFolders: Bool = true) throws(ChooserError) {
        self.path = path
        if !FileManager.default.fileExists(atPath: path) {
            guard createIfMissing else {
                throw ChooserError(.store, "there is no choices store at this path", file: path)
            }
            let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
            do {
                if createsFolders {
                    try UserFile.createDirectory(folder)
                } else {
                    try UserFile.requireDirectory(folder)
                }
            } catch {
                let reason =
                    error.reason == .doesNotExist ? "does not exist: create it first" : error.reason.description
                throw ChooserError(.store, "the choices store's folder \(folder) \(reason)", file: path)
            }
        }
        do {
            database = try DatabaseQueue(path: path)
            try Self.migrator.migrate(database)
        } catch {
            throw Self.failure(error, path: path, doing: "open the choices store")
        }
    }

    /// Every migration, in order; each is kept as it was released.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "defaultApp") { table in
                table.primaryKey("appType", .text)
                table.column("app", .text).notNull()
                table.column("knownApps", .text).notNull()
                table.column("chosenAt", .double).notNull()
            }
        }
        migrator.registerMigration("v2") { db in
            // One row per site key: remembering a site again replaces its app and scope.
            try db.create(table: "siteChoice") { table in
                table.primaryKey("site", .text)
                table.column("scope", .text).notNull().check(sql: "scope IN ('host', 'domain')")
                table.column("app", .text).notNull()
                table.column("chosenAt", .double).notNull()
            }
        }
        return migrator
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
            throw Self.failure(error, path: path, doing: "read the default for \"\(appType)\"")
        }
    }

    /// Remembers `app` as the default for `appType`, with the apps installed now.
    public func setDefault(appType: String, app: String, installedApps: Set<String>) throws(ChooserError) {
        let known = String(
            decoding: (try? JSONEncoder().encode(installedApps.sorted())) ?? Data("[]".utf8),
            as: UTF8.self
        )
        do {
            try database.write { db in
                try db.execute(
                    sql: "INSERT OR REPLACE INTO defaultApp (appType, app, knownApps, chosenAt) VALUES (?, ?, ?, ?)",
                    arguments: [appType.lowercased(), app, known, Date().timeIntervalSince1970]
                )
            }
        } catch {
            throw Self.failure(error, path: path, doing: "save the default for \"\(appType)\"")
        }
    }

    /// Forgets the default for `appType` (Choosy's long press).
    public func reset(appType: String) throws(ChooserError) {
        do {
            try database.write { db in
                try db.execute(sql: "DELETE FROM defaultApp WHERE appType = ?", arguments: [appType.lowercased()])
            }
        } catch {
            throw Self.failure(error, path: path, doing: "reset the default for \"\(appType)\"")
        }
    }

    /// The store's error for a failed database call: the file, what was being done, and why in SQLite's terms a
    /// person can act on (GRDB's and SQLite's own texts, with their SQL, never reach the user).
    static func failure(_ error: any Error, path: String, doing what: String) -> ChooserError {
        let reason: String
        switch (error as? DatabaseError)?.resultCode {
        case .SQLITE_NOTADB?: reason = "the file is not a SQLite database"
        case .SQLITE_CORRUPT?: reason = "the database is damaged"
        case .SQLITE_CANTOPEN?: reason = "the file cannot be opened (is it a folder, or in a folder without access?)"
        case .SQLITE_READONLY?, .SQLITE_PERM?, .SQLITE_AUTH?: reason = "the file may not be written"
        case .SQLITE_BUSY?, .SQLITE_LOCKED?: reason = "another process holds the database locked; try again"
        case .SQLITE_FULL?: reason = "the disk is full"
        case .SQLITE_IOERR?: reason = "the disk could not be read or written"
        default: reason = "the database does not have the expected tables (was it written by another program?)"
        }
        return ChooserError(.store, "cannot \(what): \(reason)", file: path)
    }
}
