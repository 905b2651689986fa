import Foundation

/// Loads a user layer file (`{"switchyardUserLayer": 1, …}`) into a ``LoadedUserLayer``, with a located diagnostic
/// for every entry that is wrong, through the manifest's JSON reader and decoder.
///
/// Only a file that cannot be read, is not JSON, is not a user layer or has a version this Switchyard does not read
/// throws; everything else is a diagnostic. A front end refuses a layer with errors (the previous one keeps
/// serving) and shows its warnings.
public struct UserLayerLoader: Sendable {
    /// Size limits (those of manifests).
    public var limits: ManifestLimits

    /// Creates a loader.
    public init(limits: ManifestLimits = ManifestLimits()) {
        self.limits = limits
    }

    /// Loads the layer file at `path`.
    public func load(contentsOf path: String) throws(ManifestError) -> LoadedUserLayer {
        let bytes = try JSONDocumentReader.read(path, name: path, maximumBytes: limits.maximumBytes, what: "user layer")
        return try load(bytes, file: path)
    }

    /// Loads a layer from its bytes; `file` names it in diagnostics.
    public func load(_ bytes: [UInt8], file: String? = nil) throws(ManifestError) -> LoadedUserLayer {
        let root = try JSONDocumentReader.parse(
            bytes,
            file: file,
            maximumBytes: limits.maximumBytes,
            what: "user layer"
        )
        guard root.members != nil else {
            throw ManifestError(
                code: .notAUserLayer,
                message: "a user layer must be a JSON object, not \(root.typeDescription)",
                file: file,
                position: root.position
            )
        }
        guard let versionNode = root["switchyardUserLayer"] else {
            throw ManifestError(
                code: .notAUserLayer,
                message:
                    "a user layer starts with \"switchyardUserLayer\": \(UserLayer.currentVersion); this object has no such key",
                file: file,
                position: root.position
            )
        }
        guard case .number(let text) = versionNode.value, let version = Int(text),
            version == UserLayer.currentVersion
        else {
            throw ManifestError(
                code: .unsupportedVersion,
                message:
                    "\"switchyardUserLayer\" is \(Self.quoted(versionNode)), but this Switchyard reads version \(UserLayer.currentVersion) of the user layer",
                file: file,
                position: versionNode.position
            )
        }
        let decoder = ManifestDecoder(limits: limits, file: file, version: .v5)
        let layer = decoder.decodeUserLayer(root, version: version)
        var loaded = LoadedUserLayer(layer: layer, diagnostics: decoder.diagnostics, root: root, file: file)
        loaded.source = bytes
        return loaded
    }

    /// Loads a layer from a string.
    public func load(_ text: String, file: String? = nil) throws(ManifestError) -> LoadedUserLayer {
        try load(Array(text.utf8), file: file)
    }

    private static func quoted(_ node: JSONNode) -> String {
        switch node.value {
        case .number(let text): text
        case .string(let text): "the string \"\(text)\""
        default: node.typeDescription
        }
    }
}

/// A loaded user layer with what the loader found wrong and where each element came from.
public struct LoadedUserLayer: Sendable {
    /// The layer, without the entries that had errors.
    public var layer: UserLayer
    /// Every problem found, in file order.
    public var diagnostics: [Diagnostic]
    /// The parsed document, which knows where every element is.
    public var root: JSONNode?
    /// The file name, when known.
    public var file: String?
    /// The file's bytes as read (empty for a layer made in code): what identifies the layer in an HTTP cache's tags.
    public var source: [UInt8] = []

    /// Creates a loaded layer.
    public init(layer: UserLayer, diagnostics: [Diagnostic] = [], root: JSONNode? = nil, file: String? = nil) {
        self.layer = layer
        self.diagnostics = diagnostics
        self.root = root
        self.file = file
    }

    /// The diagnostics that are errors.
    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }

    /// The layer's own apps, actions and redirect rules as a loaded manifest located in the layer file, for the
    /// manifest's compiler (and test runner).
    public var rules: LoadedManifest {
        LoadedManifest(manifest: layer.rules, diagnostics: [], root: root, file: file)
    }

    /// A diagnostic located in the layer file.
    public func diagnostic(
        _ severity: Diagnostic.Severity,
        _ code: String,
        _ message: String,
        at pointer: JSONPointer
    ) -> Diagnostic {
        Diagnostic(severity, code, message, at: pointer, position: root?.position(of: pointer), file: file)
    }
}
