import LinkRules

/// Rewrites a manifest for another format version, up or down between v1 and v5.
///
/// What changes between versions (Opener's version table): v4 shortened the keys (`displayName`→`name`,
/// `storeIdentifier`→`storeId`, `appIdentifier`→`appId`, `includeHeaders`→`headers`, `redirectRules`→`redirects`)
/// and dropped the trailing `://` of `scheme`; v5 made `storeId` a number. What older clients cannot read: `script2`
/// before v3 (Opener 1.1.8), redirect rules before v3 (Opener 1.5.8), browsers and previews in v1, and a v1 app
/// must have a `storeIdentifier`.
///
/// Content an older client cannot read is reported with one warning per item and, by default, kept: clients skip
/// keys they do not know (the real v2 file carries `script2` beside `script` this way), so newer clients reading
/// the same file lose nothing and migrating back up restores the original exactly. With ``Unsupported/drop`` it
/// is removed instead. Key order, number literals and every key the tool does not know are kept.
public struct ManifestMigrator: Sendable {
    /// What to do with content the target version's clients cannot read.
    public enum Unsupported: Sendable, Equatable {
        /// Keep it (older clients skip it); warn.
        case keep
        /// Remove it; warn.
        case drop
    }

    /// The migrated manifest and the warnings.
    public struct Result: Sendable {
        /// The migrated document.
        public var root: JSONNode
        /// The version the source was detected as.
        public var sourceVersion: ManifestVersion
        /// One warning per changed or unsupported item, pointing into the source.
        public var warnings: [Diagnostic]
    }

    /// The target version.
    public var target: ManifestVersion
    /// What to do with unsupported content.
    public var unsupported: Unsupported

    /// Creates a migrator.
    public init(to target: ManifestVersion, unsupported: Unsupported = .keep) {
        self.target = target
        self.unsupported = unsupported
    }

    static let appRenames = ["displayName": "name", "storeIdentifier": "storeId"]
    static let formatRenames = ["appIdentifier": "appId"]
    static let actionRenames = ["includeHeaders": "headers"]
    static let topRenames = ["redirectRules": "redirects"]

    /// Migrates a loaded manifest (its parsed document) to the target version.
    public func migrate(_ loaded: LoadedManifest) -> Result {
        let root = loaded.root ?? .make(.object([]))
        var run = MigrationRun(migrator: self, loaded: loaded)
        let migrated = run.migrate(root)
        run.warnAboutScripts()
        return Result(root: migrated, sourceVersion: loaded.manifest.version, warnings: run.warnings)
    }

    /// The key name in the target version (short from v4).
    func name(_ key: String, in renames: [String: String]) -> String {
        target.usesLegacyKeys ? (renames.inverted[key] ?? key) : (renames[key] ?? key)
    }
}

/// One migration: the tree walk and its warnings.
struct MigrationRun {
    let migrator: ManifestMigrator
    let loaded: LoadedManifest
    private(set) var warnings: [Diagnostic] = []
    /// Apps removed (v1 apps without a store identifier, when dropping), whose formats go too.
    private var droppedApps = Set<String>()
    /// The `script2` keys the target cannot run, each with whether nothing else produces its URL: said in one
    /// warning at the end (``warnAboutScripts()``), not one per script (the v5 manifest has 199).
    private var unrunnableScripts: [(pointer: JSONPointer, alone: Bool)] = []

    init(migrator: ManifestMigrator, loaded: LoadedManifest) {
        self.migrator = migrator
        self.loaded = loaded
    }

    var target: ManifestVersion { migrator.target }
    var dropping: Bool { migrator.unsupported == .drop }

    mutating func warn(_ code: String, _ message: String, at pointer: JSONPointer) {
        warnings.append(loaded.diagnostic(.warning, code, message, at: pointer))
    }

    /// "kept (a v2 client skips it)" or "dropped".
    func fate(_ reason: String) -> String {
        dropping ? "dropped: \(reason)" : "kept, though \(reason) (clients skip unknown keys)"
    }

    mutating func migrate(_ root: JSONNode) -> JSONNode {
        // Apps first, so that formats of dropped apps can go too.
        let apps = root["apps"].map { migrateApps($0) }
        return root.mapMembers { member in
            let pointer = JSONPointer.root.appending(member.key)
            let key = migrator.name(member.key, in: ManifestMigrator.topRenames)
            var value = member.value
            switch member.key {
            case "apps":
                value = apps ?? value
            case "actions":
                value = value.mapElements { index, action in migrateAction(action, at: pointer.appending(index)) }
            case "browsers":
                if target == .v1, !value.elements.isNilOrEmpty {
                    warn(
                        "W_MIGRATE_UNSUPPORTED",
                        "browsers are not read by v1 clients; \(fate("a v1 client cannot use them"))",
                        at: pointer
                    )
                    if dropping { return nil }
                }
                value = value.mapElements { index, browser in
                    let browserPointer = pointer.appending(index)
                    return migrateOutput(migrateApp(browser, at: browserPointer), at: browserPointer)
                }
            case "previews":
                if target == .v1, !value.elements.isNilOrEmpty {
                    warn(
                        "W_MIGRATE_UNSUPPORTED",
                        "previews are not read by v1 clients; \(fate("a v1 client cannot use them"))",
                        at: pointer
                    )
                    if dropping { return nil }
                }
                value = value.mapElements { index, preview in migrateOutput(preview, at: pointer.appending(index)) }
            case "redirects", "redirectRules":
                if target < .v3 {
                    warn(
                        "W_MIGRATE_UNSUPPORTED",
                        "redirect rules need Opener 1.5.8 (a v3 client); \(fate("a \(target) client cannot use them"))",
                        at: pointer
                    )
                    if dropping { return nil }
                }
            default:
                break
            }
            return JSONMember(key: key, keyPosition: member.keyPosition, value: value)
        }
    }

    mutating func migrateApps(_ apps: JSONNode) -> JSONNode {
        apps.mapElements { index, app in
            let pointer = JSONPointer.root.appending("apps").appending(index)
            if target == .v1, app["storeId"] == nil, app["storeIdentifier"] == nil {
                let identifier = app["identifier"]?.stringValue ?? "?"
                warn(
                    "W_MIGRATE_UNSUPPORTED",
                    "the app \"\(identifier)\" has no store identifier, which v1 requires; \(fate("a v1 client rejects it"))",
                    at: pointer
                )
                if dropping {
                    droppedApps.insert(identifier)
                    return nil
                }
            }
            return migrateApp(app, at: pointer)
        }
    }

    /// Key names, the `scheme` form (`x://` before v4, `x` after) and the `storeId` type (a number in v5).
    mutating func migrateApp(_ app: JSONNode, at pointer: JSONPointer) -> JSONNode {
        app.mapMembers { member in
            let key = migrator.name(member.key, in: ManifestMigrator.appRenames)
            var value = member.value
            switch member.key {
            case "scheme":
                if let scheme = value.stringValue { value = value.with(.string(convertScheme(scheme))) }
            case "storeId", "storeIdentifier":
                guard let converted = convertStoreId(value, at: pointer.appending(member.key)) else { return nil }
                value = converted
            default:
                break
            }
            return JSONMember(key: key, keyPosition: member.keyPosition, value: value)
        }
    }

    func convertScheme(_ scheme: String) -> String {
        var bare = Substring(scheme)
        if bare.hasSuffix("://") { bare = bare.dropLast(3) } else if bare.hasSuffix(":") { bare = bare.dropLast() }
        return target.usesLegacyKeys ? bare + "://" : String(bare)
    }

    /// A number in v5, a string before; a non-numeric store id cannot be a v5 number.
    mutating func convertStoreId(_ value: JSONNode, at pointer: JSONPointer) -> JSONNode? {
        switch (value.value, target) {
        case (.string(let text), .v5):
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                warn(
                    "W_MIGRATE_UNSUPPORTED",
                    "the store identifier \"\(text)\" is not a number, which v5 requires; \(fate("a v5 client cannot read it"))",
                    at: pointer
                )
                return dropping ? nil : value
            }
            let digits = text.drop(while: { $0 == "0" })
            return value.with(.number(digits.isEmpty ? "0" : String(digits)))
        case (.number(let literal), let version) where version < .v5:
            return value.with(.string(literal))
        default:
            return value
        }
    }

    mutating func migrateAction(_ action: JSONNode, at pointer: JSONPointer) -> JSONNode? {
        var droppedFormats = 0
        let migrated = action.mapMembers { member in
            let key = migrator.name(member.key, in: ManifestMigrator.actionRenames)
            guard member.key == "formats" else {
                return JSONMember(key: key, keyPosition: member.keyPosition, value: member.value)
            }
            let formats = member.value.mapElements { index, format -> JSONNode? in
                let formatPointer = pointer.appending("formats").appending(index)
                let appId = (format["appId"] ?? format["appIdentifier"])?.stringValue
                if let appId, droppedApps.contains(appId) {
                    warn("W_MIGRATE_UNSUPPORTED", "dropped with its app \"\(appId)\"", at: formatPointer)
                    droppedFormats += 1
                    return nil
                }
                let renamed = format.renamingKeys(
                    target.usesLegacyKeys ? ManifestMigrator.formatRenames.inverted : ManifestMigrator.formatRenames
                )
                .updating("app") { migrateApp($0, at: formatPointer.appending("app")) }
                guard let output = migrateOutput(renamed, at: formatPointer) else {
                    droppedFormats += 1
                    return nil
                }
                return output
            }
            return JSONMember(key: key, keyPosition: member.keyPosition, value: formats)
        }
        if droppedFormats > 0, migrated["formats"]?.elements?.isEmpty == true {
            warn("W_MIGRATE_UNSUPPORTED", "dropped: no format is left for a \(target) client", at: pointer)
            return nil
        }
        return migrated
    }

    /// `script2` before v3: unreadable. When dropping, the key goes; an entry left with no output goes too.
    mutating func migrateOutput(_ node: JSONNode, at pointer: JSONPointer) -> JSONNode? {
        if target >= .v4, node["script"] != nil, node["script2"] == nil, node["format"] == nil {
            warn(
                "W_MIGRATE_LEGACY_SCRIPT",
                "only the deprecated web-view \"script\" produces this URL; \(target) clients expect \"script2\" (JavaScriptCore)",
                at: pointer.appending("script")
            )
        }
        guard target < .v3, node["script2"] != nil else { return node }
        let alone = node["script"] == nil && node["format"] == nil
        unrunnableScripts.append((pointer.appending("script2"), alone))
        guard dropping else { return node }
        return alone ? nil : node.removing(["script2"])
    }
}

extension MigrationRun {
    /// One warning for every `script2` the target cannot run, at the first: with its count when there are more.
    mutating func warnAboutScripts() {
        guard let first = unrunnableScripts.first else { return }
        let alone = unrunnableScripts.count { $0.alone }
        let message: String
        if unrunnableScripts.count == 1 {
            message =
                "\"script2\" needs Opener 1.1.8 (a v3 client)\(first.alone ? ", and nothing else produces this URL" : ""); \(fate("a \(target) client cannot run it"))"
        } else {
            let only =
                alone == 0
                ? ""
                : alone == unrunnableScripts.count
                    ? " (nothing else produces their URLs)" : " (for \(alone) of them nothing else produces the URL)"
            message =
                "\"script2\" needs Opener 1.1.8 (a v3 client), and \(unrunnableScripts.count, "format") use it, this one first\(only); \(fate("a \(target) client cannot run them"))"
        }
        warn("W_MIGRATE_UNSUPPORTED", message, at: first.pointer)
    }
}

extension Optional where Wrapped == [JSONNode] {
    var isNilOrEmpty: Bool { self?.isEmpty ?? true }
}
