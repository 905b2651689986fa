/// Turns a parsed JSON tree into a ``Manifest``, accepting every version's key names, recording diagnostics and
/// skipping only the entries that cannot work.
final class ManifestDecoder {
    let limits: ManifestLimits
    let file: String?
    let version: ManifestVersion
    private(set) var diagnostics: [Diagnostic] = []
    /// The document, for finding the position of a pointer when a diagnostic needs one (positions are not
    /// recorded up front: most loads report nothing, and recording every element cost a third of the load).
    private var root = JSONNode(.null, at: SourcePosition(line: 1, column: 1, offset: 0))

    /// Keys that carry notes for people, seen in real manifests; kept and ignored without a warning.
    static let freeTextKeys: Set<String> = [
        "note", "notes", "note2", "docs", "todo", "useful", "testsThatCantBeRunCuzHeaders", "comment",
    ]

    init(limits: ManifestLimits, file: String?, version: ManifestVersion) {
        self.limits = limits
        self.file = file
        self.version = version
    }

    // MARK: Reporting

    func report(
        _ severity: Diagnostic.Severity,
        _ code: String,
        _ message: String,
        at pointer: JSONPointer,
        node: JSONNode?
    ) {
        diagnostics.append(
            Diagnostic(
                severity,
                code,
                message,
                at: pointer,
                position: node?.position ?? root.position(of: pointer),
                file: file
            )
        )
    }

    /// Reports a problem found at a known position (another reader's, such as the wrapper entries' in LinkWrappers).
    func report(
        _ severity: Diagnostic.Severity,
        _ code: String,
        _ message: String,
        at pointer: JSONPointer,
        position: SourcePosition?
    ) {
        diagnostics.append(Diagnostic(severity, code, message, at: pointer, position: position, file: file))
    }

    // MARK: Manifest

    func decodeManifest(_ root: JSONNode) -> Manifest {
        var manifest = Manifest(version: version)
        self.root = root
        // A repeated top-level key is ignored with a warning: the first one is used, as for every other lookup
        // (`JSONNode` subscripts, version detection), so that pointers like `/apps/1` name the entry loaded.
        var seen: Set<String> = []
        let members = (root.members ?? []).filter { member in
            guard seen.insert(member.key).inserted else {
                report(
                    .warning,
                    "W_DUPLICATE_KEY",
                    "the key \"\(member.key)\" appears more than once; only the first one is used",
                    at: JSONPointer.root.appending(member.key),
                    node: member.value
                )
                return false
            }
            return true
        }
        for member in members {
            let pointer = JSONPointer.root.appending(member.key)
            switch member.key {
            case "apps":
                manifest.apps = decodeApps(member.value, at: pointer)
            case "actions", "browsers", "previews", "redirects", "redirectRules":
                continue
            default:
                keepExtra(
                    member,
                    at: pointer,
                    into: &manifest.extras,
                    known: ["apps", "actions", "browsers", "previews", "redirects"]
                )
            }
        }
        let appIds = Set(manifest.apps.map(\.identifier))
        for member in members {
            let pointer = JSONPointer.root.appending(member.key)
            switch member.key {
            case "actions":
                manifest.actions = decodeList(member.value, at: pointer) { decodeAction($0, at: $1, appIds: appIds) }
                if manifest.actions.count > limits.maximumActions {
                    report(
                        .error,
                        "E_TOO_LARGE",
                        "the manifest has \(manifest.actions.count, "action"), more than the limit of \(limits.maximumActions); the rest are ignored",
                        at: pointer,
                        node: member.value
                    )
                    manifest.actions.removeLast(manifest.actions.count - limits.maximumActions)
                }
            case "browsers":
                manifest.browsers = decodeBrowsers(member.value, at: pointer)
            case "previews":
                manifest.previews = decodeList(member.value, at: pointer) { decodePreview($0, at: $1) }
            case "redirects", "redirectRules":
                manifest.redirects += decodeRedirects(member.value, at: pointer)
            default:
                continue
            }
        }
        return manifest
    }

    func decodeList<T>(_ node: JSONNode, at pointer: JSONPointer, _ decode: (JSONNode, JSONPointer) -> T?) -> [T] {
        guard let elements = node.elements else {
            report(
                .error,
                "E_TYPE",
                "\"\(pointer.tokens.last ?? "")\" must be an array, not \(node.typeDescription)",
                at: pointer,
                node: node
            )
            return []
        }
        var result: [T] = []
        for (index, element) in elements.enumerated() {
            let elementPointer = pointer.appending(index)
            guard element.members != nil else {
                report(
                    .error,
                    "E_TYPE",
                    "each entry must be an object, not \(element.typeDescription)",
                    at: elementPointer,
                    node: element
                )
                continue
            }
            if let value = decode(element, elementPointer) { result.append(value) }
        }
        return result
    }

    func keepExtra(_ member: JSONMember, at pointer: JSONPointer, into extras: inout [JSONMember], known: Set<String>) {
        extras.append(member)
        guard !Self.freeTextKeys.contains(member.key) else { return }
        var message = "unknown key \"\(member.key)\" is ignored"
        if let suggestion = KeySuggestion.closest(to: member.key, among: known) {
            message += "; did you mean \"\(suggestion)\"?"
        }
        report(.warning, "W_UNKNOWN_KEY", message, at: pointer, node: member.value)
    }
}
