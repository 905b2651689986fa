import Foundation
import GRDB
import LinkFetching
import WebLinks

extension ChoicesStore {
    /// Remembers `app` for `site` (a host name as the user gives it; see ``SiteChoice/canonicalSite(_:scope:)``),
    /// replacing what was remembered for the same site; returns the choice as stored.
    @discardableResult
    public func rememberSite(
        _ site: String,
        app: String,
        scope: SiteScope = .host,
        now: Date = Date()
    ) throws(ChooserError) -> SiteChoice {
        let key = try SiteChoice.canonicalSite(site, scope: scope)
        let app = app.trimmingCharacters(in: .whitespaces)
        guard !app.isEmpty else {
            throw ChooserError(.unknownApp, "the app to remember for \(key) is empty: give a manifest app identifier")
        }
        let choice = SiteChoice(site: key, scope: scope, app: app, chosenAt: now)
        do {
            try database.write { db in
                try db.execute(
                    sql: "INSERT OR REPLACE INTO siteChoice (site, scope, app, chosenAt) VALUES (?, ?, ?, ?)",
                    arguments: [key, scope.rawValue, app, now.timeIntervalSince1970]
                )
            }
        } catch {
            throw Self.failure(error, path: path, doing: "remember the app for \(key)")
        }
        return choice
    }

    /// The choice that applies to a link to `host` (canonical, as `Link.host` (WebLinks) gives it), or nil: the
    /// choice for the host itself (whatever its scope) wins, then the nearest parent domain remembered with its
    /// subdomains.
    public func siteChoice(forHost host: String) throws(ChooserError) -> SiteChoice? {
        // `a.b.example.com` → itself, `b.example.com`, `example.com`, `com`: every key that could cover it.
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        let candidates = host.hasPrefix("[") ? [host] : labels.indices.map { labels[$0...].joined(separator: ".") }
        let choices = try fetchSites(
            "WHERE site IN (\(candidates.map { _ in "?" }.joined(separator: ", ")))",
            StatementArguments(candidates),
            doing: "read the app remembered for \(host)"
        )
        if let exact = choices.first(where: { $0.site == host }) { return exact }
        return choices.filter { $0.scope == .domain && $0.covers(host: host) }.max { $0.site.count < $1.site.count }
    }

    /// The choice that applies to `link`'s host (see ``siteChoice(forHost:)``).
    public func siteChoice(for link: Link) throws(ChooserError) -> SiteChoice? {
        try siteChoice(forHost: link.host)
    }

    /// Every site choice, by site.
    public func siteChoices() throws(ChooserError) -> [SiteChoice] {
        try fetchSites("ORDER BY site", [], doing: "list the remembered sites")
    }

    /// Forgets what was remembered for `site` (a host name as the user gives it, either scope); returns the
    /// forgotten choice, or nil when there was none (a parent domain's choice may still cover the host).
    @discardableResult
    public func forgetSite(_ site: String) throws(ChooserError) -> SiteChoice? {
        let key = try SiteChoice.canonicalSite(site, scope: .host)
        do {
            return try database.write { db in
                let rows = try Row.fetchAll(
                    db,
                    sql: "SELECT site, scope, app, chosenAt FROM siteChoice WHERE site = ?",
                    arguments: [key]
                )
                try db.execute(sql: "DELETE FROM siteChoice WHERE site = ?", arguments: [key])
                return rows.compactMap(Self.siteChoice).first
            }
        } catch {
            throw Self.failure(error, path: path, doing: "forget the app remembered for \(key)")
        }
    }

    /// Forgets every site choice; returns how many there were.
    @discardableResult
    public func forgetAllSites() throws(ChooserError) -> Int {
        do {
            return try database.write { db in
                try db.execute(sql: "DELETE FROM siteChoice")
                return db.changesCount
            }
        } catch {
            throw Self.failure(error, path: path, doing: "forget the remembered sites")
        }
    }

    private func fetchSites(
        _ clause: String,
        _ arguments: StatementArguments,
        doing what: String
    ) throws(ChooserError) -> [SiteChoice] {
        do {
            return try database.read { db in
                try Row.fetchAll(
                    db,
                    sql: "SELECT site, scope, app, chosenAt FROM siteChoice \(clause)",
                    arguments: arguments
                )
                .compactMap(Self.siteChoice)
            }
        } catch {
            throw Self.failure(error, path: path, doing: what)
        }
    }

    /// A row as a choice; a scope this version does not know (a newer Switchyard's) is skipped.
    /// (A row another program wrote with a NULL or a value of another type is skipped too: decoding never traps.)
    private static func siteChoice(_ row: Row) -> SiteChoice? {
        guard let scopeText = row["scope"] as String?, let scope = SiteScope(rawValue: scopeText),
            let site = row["site"] as String?, let app = row["app"] as String?,
            let chosenAt = row["chosenAt"] as Double?
        else { return nil }
        return SiteChoice(site: site, scope: scope, app: app, chosenAt: Date(timeIntervalSince1970: chosenAt))
    }
}

extension ChoicesStore {
    /// A text made from the choices a resolution reads (an FNV-1a hash of every site, scope and app, in site order,
    /// then the default browser): the same for the same choices in any process or replica, another one when a choice
    /// is remembered, replaced or forgotten by anyone. An HTTP cache's entity tags name it, so a remembered site or
    /// default browser invalidates the answers it changes. Nil when the file cannot be read.
    public func revision() -> String? {
        try? database.read { db in
            var hash = StableHash.FNV1a()
            let rows = try Row.fetchCursor(
                db,
                sql: """
                    SELECT site, scope, app FROM siteChoice
                    UNION ALL SELECT '', 'default', app FROM defaultApp WHERE appType = ?
                    ORDER BY 1, 2
                    """,
                arguments: [Self.browserType]
            )
            while let row = try rows.next() {
                for column in 0..<3 {
                    let text: String = (row[column] as String?) ?? ""
                    hash.combine(text.utf8 + [0])
                }
            }
            return hash.hex
        }
    }
}
