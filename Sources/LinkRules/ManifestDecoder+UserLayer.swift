import LinkWrappers

/// Decoding of a user layer: its own keys here, its apps, actions and redirect rules by the manifest's functions, so
/// that a user's action is read exactly as a manifest's is.
extension ManifestDecoder {
    static let referenceKeys: Set<String> = ["app", "browser", "action", "appId", "redirect", "pointer"]

    func decodeUserLayer(_ root: JSONNode, version: Int) -> UserLayer {
        var layer = UserLayer(version: version, rules: Manifest(version: .v5))
        var ignored: [JSONMember] = []
        var seen: Set<String> = []
        for member in root.members ?? [] {
            guard seen.insert(member.key).inserted else {
                report(
                    .warning,
                    "W_DUPLICATE_KEY",
                    "the key \"\(member.key)\" appears more than once; only the first one is used",
                    at: JSONPointer.root.appending(member.key),
                    node: member.value
                )
                continue
            }
            let pointer = JSONPointer.root.appending(member.key)
            let value = member.value
            switch member.key {
            case "switchyardUserLayer", "$schema":
                continue
            case "disable":
                layer.disable = decodeReferences(value, at: pointer)
            case "sites":
                layer.sites = decodeList(value, at: pointer) { decodeSite($0, at: $1) }
            case "prefer":
                layer.prefer = decodeAppReferences(value, at: pointer)
            case "hide":
                layer.hide = decodeAppReferences(value, at: pointer)
            case "when":
                layer.when = decodeList(value, at: pointer) { decodeCondition($0, at: $1) }
            case "apps":
                layer.rules.apps = decodeApps(value, at: pointer)
            case "actions":
                // The apps an action names are those of the manifest the layer is applied over: checked then.
                layer.rules.actions = decodeList(value, at: pointer) { decodeAction($0, at: $1, appIds: nil) }
            case "redirects":
                layer.rules.redirects = decodeRedirects(value, at: pointer)
            case "wrappers":
                // The built-in catalog's reader: a user's entry is read exactly as Switchyard's own are.
                let read = WrapperCatalogReader(file: file).entries(value, at: pointer)
                layer.wrappers = read.wrappers
                for issue in read.issues {
                    report(
                        issue.severity == .error ? .error : .warning,
                        issue.code,
                        issue.message,
                        at: issue.pointer,
                        position: issue.position
                    )
                }
            case "disableWrappers":
                layer.disabledWrappers = patterns(value, at: pointer, what: "wrapper identifiers", allowsEmpty: true) {
                    text,
                    _ in
                    text.isEmpty ? "a wrapper identifier cannot be empty" : nil
                }.map { WrapperReference($0.text, at: $0.pointer) }
            case "openWrapped":
                layer.opensWrapped = bool(root, ["openWrapped"], at: .root)
            default:
                keepExtra(member, at: pointer, into: &ignored, known: UserLayer.keys)
            }
        }
        return layer
    }

    /// `["/actions/12", {"app": "twitter"}, {"action": "Open Tweet", "appId": "twitter"}, …]`.
    func decodeReferences(_ node: JSONNode, at pointer: JSONPointer) -> [RuleReference] {
        guard let elements = node.elements else {
            report(
                .error,
                "E_TYPE",
                "\"\(pointer.tokens.last ?? "")\" must be an array of references, not \(node.typeDescription)",
                at: pointer,
                node: node
            )
            return []
        }
        return elements.enumerated().compactMap { index, element in
            decodeReference(element, at: pointer.appending(index))
        }
    }

    func decodeReference(_ node: JSONNode, at pointer: JSONPointer) -> RuleReference? {
        if let text = node.stringValue {
            guard text.hasPrefix("/") else {
                report(
                    .error,
                    "E_REFERENCE",
                    "\"\(text)\" is not a JSON pointer: write \"/actions/12\", or name the entry, as in {\"app\": \"\(text)\"}",
                    at: pointer,
                    node: node
                )
                return nil
            }
            return RuleReference(.pointer(JSONPointer(stringLiteral: text)), at: pointer)
        }
        guard let members = node.members else {
            report(
                .error,
                "E_TYPE",
                "a reference must be a JSON pointer or an object such as {\"app\": \"twitter\"}, not \(node.typeDescription)",
                at: pointer,
                node: node
            )
            return nil
        }
        var extras: [JSONMember] = []
        for member in members where !Self.referenceKeys.contains(member.key) {
            keepExtra(member, at: pointer.appending(member.key), into: &extras, known: Self.referenceKeys)
        }
        let named = ["app", "browser", "action", "redirect", "pointer"].filter { node[$0] != nil }
        guard named.count == 1, let key = named.first, let text = string(node, [key], at: pointer) else {
            if named.count != 1 {
                report(
                    .error,
                    named.isEmpty ? "E_MISSING" : "E_CONFLICT",
                    "a reference names one entry: exactly one of \"app\", \"browser\", \"action\", \"redirect\" or \"pointer\"",
                    at: pointer,
                    node: node
                )
            }
            return nil
        }
        let appId = string(node, ["appId"], at: pointer)
        if appId != nil && key != "action" {
            report(
                .error,
                "E_CONFLICT",
                "\"appId\" narrows an \"action\" reference to one app; it cannot go with \"\(key)\"",
                at: pointer.appending("appId"),
                node: node["appId"]
            )
            return nil
        }
        if text.isEmpty || (key == "pointer" && !text.hasPrefix("/")) {
            report(
                .error,
                "E_REFERENCE",
                key == "pointer"
                    ? "\"\(text)\" is not a JSON pointer, which starts with \"/\" (\"/actions/12\")"
                    : "\"\(key)\" is empty: name the \(key)",
                at: pointer.appending(key),
                node: node[key]
            )
            return nil
        }
        let target: RuleReference.Target =
            switch key {
            case "app": .app(text)
            case "browser": .browser(text)
            case "action": .action(title: text, appId: appId)
            case "redirect": .redirect(text)
            default: .pointer(JSONPointer(stringLiteral: text))
            }
        return RuleReference(target, at: pointer)
    }

    /// `["twitter", "com.example.app"]`: app identifiers.
    func decodeAppReferences(_ node: JSONNode, at pointer: JSONPointer) -> [AppReference] {
        patterns(node, at: pointer, what: "app identifiers", allowsEmpty: true) { text, _ in
            text.isEmpty ? "an app identifier cannot be empty" : nil
        }.map { AppReference($0.text, at: $0.pointer) }
    }

    func decodeSite(_ object: JSONNode, at pointer: JSONPointer) -> SiteRule? {
        var extras: [JSONMember] = []
        for member in object.members ?? [] where !SiteRule.keys.contains(member.key) {
            keepExtra(member, at: pointer.appending(member.key), into: &extras, known: SiteRule.keys)
        }
        let skipsManifest = object["skipManifest"] == nil ? true : bool(object, ["skipManifest"], at: pointer)
        let skipsCleaning = bool(object, ["skipCleaning"], at: pointer)
        let skipsClaims = bool(object, ["skipClaims"], at: pointer)
        guard let hostsNode = object["hosts"] else {
            report(.error, "E_MISSING", "the site names no \"hosts\"", at: pointer, node: object)
            return nil
        }
        let hosts = hostPatterns(hostsNode, at: pointer.appending("hosts"))
        guard !hosts.isEmpty else { return nil }
        return SiteRule(
            hosts: hosts,
            skipsManifest: skipsManifest,
            skipsCleaning: skipsCleaning,
            skipsClaims: skipsClaims,
            at: pointer
        )
    }

    func decodeCondition(_ object: JSONNode, at pointer: JSONPointer) -> LayerCondition? {
        var condition = LayerCondition(at: pointer)
        for member in object.members ?? [] {
            let memberPointer = pointer.appending(member.key)
            switch member.key {
            case "sourceApps":
                condition.sourceApps = patterns(member.value, at: memberPointer, what: "bundle identifiers") {
                    text,
                    _ in
                    SourceAppPattern(text) == nil
                        ? "\"\(text)\" is not a bundle identifier or a prefix such as \"com.tinyspeck.*\"" : nil
                }.compactMap { SourceAppPattern($0.text) }
            case "hosts": condition.hosts = hostPatterns(member.value, at: memberPointer)
            case "browserOnly": condition.browserOnly = bool(object, ["browserOnly"], at: pointer)
            case "disable": condition.disable = decodeReferences(member.value, at: memberPointer)
            case "hide": condition.hide = decodeAppReferences(member.value, at: memberPointer)
            case "prefer": condition.prefer = decodeAppReferences(member.value, at: memberPointer)
            default:
                var extras: [JSONMember] = []
                keepExtra(member, at: memberPointer, into: &extras, known: LayerCondition.keys)
            }
        }
        guard object["sourceApps"] != nil || object["hosts"] != nil else {
            report(
                .error,
                "E_MISSING",
                "a \"when\" entry needs \"sourceApps\" or \"hosts\"; for every link, use the top-level keys",
                at: pointer,
                node: object
            )
            return nil
        }
        if (object["sourceApps"] != nil && condition.sourceApps.isEmpty)
            || (object["hosts"] != nil && condition.hosts.isEmpty)
        {
            // The problem is reported at the list: an empty condition would apply to every link.
            return nil
        }
        return condition
    }

    func hostPatterns(_ node: JSONNode, at pointer: JSONPointer) -> [HostPattern] {
        patterns(node, at: pointer, what: "host patterns") { text, _ in HostPattern.problem(with: text) }
            .compactMap { HostPattern($0.text) }
    }

    /// A non-empty array of strings, each checked by `problem`; wrong elements are reported and dropped.
    func patterns(
        _ node: JSONNode,
        at pointer: JSONPointer,
        what: String,
        allowsEmpty: Bool = false,
        problem: (String, JSONPointer) -> String?
    ) -> [(text: String, pointer: JSONPointer)] {
        guard let elements = node.elements, allowsEmpty || !elements.isEmpty else {
            report(
                .error,
                "E_TYPE",
                "\"\(pointer.tokens.last ?? "")\" must be \(allowsEmpty ? "an" : "a non-empty") array of \(what), not \(node.elements == nil ? node.typeDescription : "an empty array")",
                at: pointer,
                node: node
            )
            return []
        }
        var result: [(text: String, pointer: JSONPointer)] = []
        for (index, element) in elements.enumerated() {
            let elementPointer = pointer.appending(index)
            guard let text = element.stringValue else {
                report(
                    .error,
                    "E_TYPE",
                    "each of \(what) must be a string, not \(element.typeDescription)",
                    at: elementPointer,
                    node: element
                )
                continue
            }
            if let problem = problem(text, elementPointer) {
                report(.error, "E_PATTERN", problem, at: elementPointer, node: element)
                continue
            }
            result.append((text, elementPointer))
        }
        return result
    }
}
