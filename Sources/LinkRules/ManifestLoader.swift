import Foundation

/// Loads Opener manifests of every version (v1–v5) into a ``Manifest``, with diagnostics for every entry that is
/// wrong and positions for every element.
///
/// A broken entry never stops the load: it is skipped (or coerced) and reported, so a rule set with one bad regex
/// still opens every other link. Only a file that is not a JSON object at all, or is too large, throws.
public struct ManifestLoader: Sendable {
    /// Size limits.
    public var limits: ManifestLimits

    /// Creates a loader.
    public init(limits: ManifestLimits = ManifestLimits()) {
        self.limits = limits
    }

    /// Loads a manifest from a file, read through WebLinks' `UserFile`: a file that cannot be read is `E_READ` with the
    /// reason in a few words, one larger than the limit `E_TOO_LARGE`.
    public func load(contentsOf url: URL) throws(ManifestError) -> LoadedManifest {
        // A file is named as it was given (`rules.json`, not the absolute path), as every file a user names is.
        let name = url.isFileURL ? url.relativePath : url.absoluteString
        let bytes = try JSONDocumentReader.read(
            url.path,
            name: name,
            maximumBytes: limits.maximumBytes,
            what: "manifest"
        )
        return try load(bytes, file: name)
    }

    /// Loads a manifest from its bytes; `file` names it in diagnostics.
    public func load(_ bytes: [UInt8], file: String? = nil) throws(ManifestError) -> LoadedManifest {
        let root = try JSONDocumentReader.parse(bytes, file: file, maximumBytes: limits.maximumBytes, what: "manifest")
        guard let members = root.members else {
            throw ManifestError(
                code: .notAManifest,
                message: "the manifest must be a JSON object, not \(root.typeDescription)",
                file: file,
                position: root.position
            )
        }
        guard members.contains(where: { ["apps", "actions", "browsers"].contains($0.key) }) else {
            throw ManifestError(
                code: .notAManifest,
                message: "the object has none of the keys \"apps\", \"actions\" or \"browsers\"",
                file: file,
                position: root.position
            )
        }
        let decoder = ManifestDecoder(limits: limits, file: file, version: ManifestVersion.detect(in: root))
        let manifest = decoder.decodeManifest(root)
        var loaded = LoadedManifest(manifest: manifest, diagnostics: decoder.diagnostics, root: root, file: file)
        loaded.source = bytes
        return loaded
    }

    /// Loads a manifest from a string.
    public func load(_ text: String, file: String? = nil) throws(ManifestError) -> LoadedManifest {
        try load(Array(text.utf8), file: file)
    }
}

/// A loaded manifest with what the loader found wrong and where each element came from.
public struct LoadedManifest: Sendable {
    /// The rule set, without the entries that had errors.
    public var manifest: Manifest
    /// Every problem found, in file order.
    public var diagnostics: [Diagnostic]
    /// The parsed document, which knows where every element is.
    public var root: JSONNode?
    /// The file name, when known.
    public var file: String?
    /// The bytes the manifest was read from (empty for one made in code): what identifies exactly this version of
    /// the rules, as a server's HTTP caching does.
    public var source: [UInt8] = []

    /// Creates a loaded manifest.
    public init(manifest: Manifest, diagnostics: [Diagnostic] = [], root: JSONNode? = nil, file: String? = nil) {
        self.manifest = manifest
        self.diagnostics = diagnostics
        self.root = root
        self.file = file
    }

    /// The diagnostics that are errors.
    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }

    /// The position of the element at `pointer`, when known.
    public func position(of pointer: JSONPointer) -> SourcePosition? { root?.position(of: pointer) }

    /// A diagnostic located in this manifest's file.
    public func diagnostic(
        _ severity: Diagnostic.Severity,
        _ code: String,
        _ message: String,
        at pointer: JSONPointer
    ) -> Diagnostic {
        Diagnostic(severity, code, message, at: pointer, position: position(of: pointer), file: file)
    }
}

extension ManifestVersion {
    /// Detects the version from the keys and value types used (file names lie; content does not).
    ///
    /// Long keys (`displayName`, `storeIdentifier`, `appIdentifier`, `includeHeaders`, `redirectRules`) mean v1–v3:
    /// v3 when some format has only `script2` (a v2 client could not run it), v1 when every app has a
    /// `storeIdentifier` and nothing uses `script2` or browsers, else v2. Short keys mean v4 when a `storeId` is a
    /// string, else v5.
    public static func detect(in root: JSONNode) -> ManifestVersion {
        let apps = root["apps"]?.elements ?? []
        let actions = root["actions"]?.elements ?? []
        let formats = actions.flatMap { $0["formats"]?.elements ?? [] }
        let legacyKeys = ["displayName", "storeIdentifier", "appIdentifier", "includeHeaders"]
        let usesLegacy =
            root["redirectRules"] != nil
            || apps.contains { app in legacyKeys.contains { app[$0] != nil } }
            || actions.contains { $0["includeHeaders"] != nil }
            || formats.contains { $0["appIdentifier"] != nil }
        if usesLegacy {
            if formats.contains(where: { $0["script2"] != nil && $0["script"] == nil }) { return .v3 }
            let everyAppHasStoreId = apps.allSatisfy { $0["storeIdentifier"] != nil || $0["storeId"] != nil }
            let usesNewer = formats.contains { $0["script2"] != nil } || !(root["browsers"]?.elements ?? []).isEmpty
            return everyAppHasStoreId && !usesNewer ? .v1 : .v2
        }
        let stringStoreId = apps.contains { $0["storeId"]?.stringValue != nil }
        return stringStoreId ? .v4 : .v5
    }
}
