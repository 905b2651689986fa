import LinkRules
import LinkScripts

/// Shrinks a manifest for clients, as the Opener repository's `minify.py` does, and further.
///
/// Like `minify.py`: only the keys a client reads are kept (per section: apps, actions, formats, browsers, previews,
/// redirects), so tests, docs and notes go; `scheme` values written as `x://` become `x:`; actions left with no
/// formats are dropped; the JSON is compact. `stripNew` also drops `new` flags and `previews`; `stripForBundle`
/// keeps only what a client embedding the rules reads to resolve links (see ``Options/stripForBundle``).
///
/// Beyond it: scripts are minified with a tokenizer that respects strings, template and regex literals and
/// automatic semicolon insertion (never renaming anything), each minified script is re-checked by JavaScriptCore's
/// parser, and ``ManifestEquivalence`` proves the result by running every test case of the original on it.
public struct ManifestMinifier: Sendable {
    /// What to strip.
    public struct Options: Sendable, Equatable {
        /// Drop `new` flags and `previews` (`--strip-new`).
        public var stripNew = false
        /// Keep only what a client embedding the rules needs to resolve links (`--strip-for-bundle`): also drops
        /// `new`, `previews`, `iconURL`, `macStoreId`, `country`, and legacy `script` where `script2` is present.
        public var stripForBundle = false
        /// Remove comments and whitespace from scripts (`--no-mangle` turns it off).
        public var minifyScripts = true
        /// Keep `testInputs`, `testResults` and redirect `tests` (for checking the output with `switchyard test`).
        public var keepTests = false

        /// Creates options.
        public init(
            stripNew: Bool = false,
            stripForBundle: Bool = false,
            minifyScripts: Bool = true,
            keepTests: Bool = false
        ) {
            self.stripNew = stripNew
            self.stripForBundle = stripForBundle
            self.minifyScripts = minifyScripts
            self.keepTests = keepTests
        }
    }

    /// The minified manifest and what was done.
    public struct Result: Sendable {
        /// The compact JSON text.
        public var text: String
        /// The size of key stripping alone (compact JSON, scripts as written), for comparison.
        public var keyStrippedBytes: Int
        /// Scripts whose minified form was used.
        public var scriptsMinified = 0
        /// Scripts kept as written because the tokenizer or JavaScriptCore refused the minified form.
        public var scriptsKept = 0
        /// JSON pointers of the actions dropped because no format was left.
        public var droppedActions: [String] = []
    }

    /// The options.
    public var options: Options

    /// Creates a minifier.
    public init(options: Options = Options()) {
        self.options = options
    }

    static let topLevelKeys: Set<String> = ["apps", "actions", "browsers", "previews", "redirects", "redirectRules"]
    static let appKeys: Set<String> = [
        "identifier", "name", "displayName", "scheme", "storeId", "storeIdentifier", "macStoreId", "iconURL", "new",
        "platform", "country", "claims",
    ]
    static let actionKeys: Set<String> = ["title", "regex", "headers", "includeHeaders", "formats"]
    static let formatKeys: Set<String> = ["appId", "appIdentifier", "app", "format", "script2", "script"]
    static let outputKeys: Set<String> = ["regex", "format", "script2", "script"]
    static let previewKeys: Set<String> = ["regex", "format", "script2", "script", "canSave"]
    static let redirectKeys: Set<String> = ["format", "param"]
    static let testKeys: Set<String> = ["testInputs", "testResults", "tests"]

    /// Minifies a parsed manifest.
    public func minify(_ root: JSONNode) -> Result {
        let stripped = strip(root)
        let keyStrippedBytes = JSONWriter(style: .compact).write(stripped).utf8.count
        var result = Result(text: "", keyStrippedBytes: keyStrippedBytes)
        let final = options.minifyScripts ? minifyScripts(in: stripped, result: &result) : stripped
        result.text = JSONWriter(style: .compact).write(final)
        result.droppedActions = droppedActions(root)
        return result
    }

    // MARK: Key stripping

    private var dropsNew: Bool { options.stripNew || options.stripForBundle }

    private func keys(_ base: Set<String>) -> Set<String> {
        options.keepTests ? base.union(Self.testKeys) : base
    }

    private var appKeys: Set<String> {
        var keys = Self.appKeys
        if dropsNew { keys.remove("new") }
        if options.stripForBundle { keys.subtract(["iconURL", "macStoreId", "country"]) }
        return keys
    }

    func strip(_ root: JSONNode) -> JSONNode {
        var top = Self.topLevelKeys
        if dropsNew { top.remove("previews") }
        return root.keeping(top).mapMembers { member in
            let value: JSONNode
            switch member.key {
            case "apps": value = member.value.mapElements { _, app in stripApp(app) }
            case "actions": value = member.value.mapElements { _, action in stripAction(action) }
            case "browsers":
                value = member.value.mapElements { _, browser in
                    stripOutput(stripApp(browser, extra: keys(Self.outputKeys)))
                }
            case "previews":
                value = member.value.mapElements { _, preview in stripOutput(preview.keeping(Self.previewKeys)) }
            default:
                value = member.value.mapMembers { rule in
                    JSONMember(
                        key: rule.key,
                        keyPosition: rule.keyPosition,
                        value: rule.value.keeping(keys(Self.redirectKeys))
                    )
                }
            }
            return JSONMember(key: member.key, keyPosition: member.keyPosition, value: value)
        }
    }

    private func stripApp(_ app: JSONNode, extra: Set<String> = []) -> JSONNode {
        app.keeping(appKeys.union(extra)).updating("scheme") { scheme in
            guard let text = scheme.stringValue, text.hasSuffix("://") else { return scheme }
            return scheme.with(.string(String(text.dropLast(2))))
        }
    }

    private func stripAction(_ action: JSONNode) -> JSONNode? {
        let kept = action.keeping(keys(Self.actionKeys).subtracting(["testResults", "tests"])).updating("formats") {
            formats in
            formats.mapElements { _, format in
                stripOutput(
                    format.keeping(keys(Self.formatKeys).subtracting(["testInputs", "tests"])).updating("app") {
                        stripApp($0)
                    }
                )
            }
        }
        return (kept["formats"]?.elements?.isEmpty ?? true) ? nil : kept
    }

    /// With `stripForBundle`, legacy `script` goes where `script2` is present (clients since Opener 1.1.8 run script2).
    private func stripOutput(_ node: JSONNode) -> JSONNode {
        guard options.stripForBundle, node["script2"] != nil else { return node }
        return node.removing(["script"])
    }

    private func droppedActions(_ root: JSONNode) -> [String] {
        (root["actions"]?.elements ?? []).enumerated().compactMap { index, action in
            (action["formats"]?.elements?.isEmpty ?? true) ? "/actions/\(index)" : nil
        }
    }

    // MARK: Scripts

    private func minifyScripts(in root: JSONNode, result: inout Result) -> JSONNode {
        func visit(_ node: JSONNode) -> JSONNode {
            switch node.value {
            case .array(let elements):
                return node.with(.array(elements.map(visit)))
            case .object(let members):
                return node.with(
                    .object(
                        members.map { member in
                            guard member.key == "script2" || member.key == "script",
                                let source = member.value.stringValue
                            else {
                                return JSONMember(
                                    key: member.key,
                                    keyPosition: member.keyPosition,
                                    value: visit(member.value)
                                )
                            }
                            let minified = Self.minifiedScript(source)
                            if minified == nil { result.scriptsKept += 1 } else { result.scriptsMinified += 1 }
                            return JSONMember(
                                key: member.key,
                                keyPosition: member.keyPosition,
                                value: member.value.with(.string(minified ?? source))
                            )
                        }
                    )
                )
            default:
                return node
            }
        }
        return visit(root)
    }

    /// The minified script, when the tokenizer could minify it and JavaScriptCore parses the result whenever it
    /// parsed the original; nil keeps the original.
    static func minifiedScript(_ source: String) -> String? {
        guard let minified = JavaScriptMinifier.minify(source), minified.utf8.count <= source.utf8.count else {
            return nil
        }
        let checker = ScriptSyntaxChecker.shared
        if checker.check(minified) != nil, checker.check(source) == nil { return nil }
        return minified
    }
}
