import WebLinks

/// Reads wrapper entries from JSON with a located issue for each thing wrong: the built-in catalog file, and the
/// `wrappers` of a user layer (whose loader turns the issues into its diagnostics).
///
/// An entry: `{"id": "safelinks", "name": "Microsoft Defender Safe Links", "hosts": ["*.safelinks.protection.outlook.com"],
/// "paths": ["/"], "decode": "query", "parameters": ["url"]}`. `decode` is one of `query`, `proofpoint-v2`,
/// `proofpoint-v3`, `last-path-segment`, `base64`, `opaque` and `page`; `parameters` (a non-empty list of query parameter names)
/// goes with `query` (the first present and not empty is decoded), `proofpoint-v2` and `base64` (one name), and with
/// nothing else. An entry with an error is left out.
package struct WrapperCatalogReader {
    /// The file named in issues.
    package var file: String?

    /// The keys of an entry.
    package static let entryKeys: Set<String> = ["id", "name", "hosts", "paths", "decode", "parameters"]

    /// Creates a reader.
    package init(file: String? = nil) {
        self.file = file
    }

    /// Reads a catalog file: `{"switchyardLinkWrappers": 1, "wrappers": […]}`. A text that is not JSON, or not such an
    /// object, throws; a wrong entry is an issue.
    package func read(
        _ bytes: [UInt8]
    ) throws(LinkWrapperError) -> (catalog: LinkWrapperCatalog, issues: [WrapperIssue]) {
        let place = file ?? "<link wrappers>"
        let root: JSONNode
        do {
            root = try JSONReader().parse(bytes)
        } catch {
            throw LinkWrapperError("\(place):\(error.position): error: \(error.message)")
        }
        guard case .number(let version) = root["switchyardLinkWrappers"]?.value,
            version == String(LinkWrapperCatalog.currentVersion)
        else {
            throw LinkWrapperError(
                "\(place):\(root.position): error: a link wrapper catalog starts with \"switchyardLinkWrappers\": \(LinkWrapperCatalog.currentVersion)"
            )
        }
        guard let list = root["wrappers"] else {
            throw LinkWrapperError("\(place):\(root.position): error: the catalog has no \"wrappers\" list")
        }
        let (wrappers, issues) = entries(list, at: JSONPointer.root.appending("wrappers"))
        return (LinkWrapperCatalog(wrappers: wrappers), issues)
    }

    /// Reads a list of entries at `pointer` (a repeated identifier is an error: the first entry keeps it).
    package func entries(_ node: JSONNode, at pointer: JSONPointer) -> (wrappers: [LinkWrapper], issues: [WrapperIssue])
    {
        var issues: [WrapperIssue] = []
        guard let elements = node.elements else {
            issues.append(
                issue(
                    .error,
                    "E_TYPE",
                    "\"\(pointer.tokens.last ?? "")\" must be an array of wrapper entries, not \(node.typeDescription)",
                    pointer,
                    node
                )
            )
            return ([], issues)
        }
        var wrappers: [LinkWrapper] = []
        var seen: Set<String> = []
        for (index, element) in elements.enumerated() {
            let entryPointer = pointer.appending(index)
            guard let wrapper = entry(element, at: entryPointer, issues: &issues) else { continue }
            guard seen.insert(wrapper.id).inserted else {
                issues.append(
                    issue(
                        .error,
                        "E_DUPLICATE_WRAPPER",
                        "another entry before this one has the id \"\(wrapper.id)\"; give each entry its own",
                        entryPointer.appending("id"),
                        element["id"]
                    )
                )
                continue
            }
            wrappers.append(wrapper)
        }
        return (wrappers, issues)
    }

    /// Reads one entry, or nil (with issues) when it has an error.
    func entry(_ node: JSONNode, at pointer: JSONPointer, issues: inout [WrapperIssue]) -> LinkWrapper? {
        guard let members = node.members else {
            issues.append(
                issue(.error, "E_TYPE", "a wrapper entry must be an object, not \(node.typeDescription)", pointer, node)
            )
            return nil
        }
        let before = issues.count
        var seen: Set<String> = []
        for member in members {
            let memberPointer = pointer.appending(member.key)
            if !seen.insert(member.key).inserted {
                issues.append(
                    issue(
                        .warning,
                        "W_DUPLICATE_KEY",
                        "the key \"\(member.key)\" appears more than once; only the first one is used",
                        memberPointer,
                        member.value
                    )
                )
            } else if !Self.entryKeys.contains(member.key) {
                var message = "unknown key \"\(member.key)\" is ignored"
                if let suggestion = KeySuggestion.closest(to: member.key, among: Self.entryKeys) {
                    message += "; did you mean \"\(suggestion)\"?"
                }
                issues.append(issue(.warning, "W_UNKNOWN_KEY", message, memberPointer, member.value))
            }
        }
        let id = string(node, "id", at: pointer, issues: &issues)
        if let id, id.isEmpty || id.contains(where: { $0.isWhitespace }) {
            issues.append(
                issue(
                    .error,
                    "E_WRAPPER_ID",
                    "the id \"\(id)\" must be a word without spaces, such as \"my-gateway\"",
                    pointer.appending("id"),
                    node["id"]
                )
            )
        }
        let name = string(node, "name", at: pointer, issues: &issues)
        if name?.isEmpty == true {
            issues.append(
                issue(
                    .error,
                    "E_MISSING",
                    "\"name\" is empty: name the wrapper as a resolution shows it",
                    pointer.appending("name"),
                    node["name"]
                )
            )
        }
        let hosts = list(node, "hosts", at: pointer, issues: &issues) { text -> Checked<WrapperHostPattern> in
            WrapperHostPattern(text).map(Checked.value) ?? .problem(WrapperHostPattern.problem(with: text) ?? "")
        }
        let paths = list(node, "paths", at: pointer, issues: &issues) { text -> Checked<WrapperPathPattern> in
            WrapperPathPattern(text).map(Checked.value) ?? .problem(WrapperPathPattern.problem(with: text) ?? "")
        }
        let decoding = decoding(node, at: pointer, issues: &issues)
        guard issues[before...].allSatisfy({ $0.severity == .warning }), let id, let name, let hosts, let paths,
            let decoding
        else { return nil }
        return LinkWrapper(id: id, name: name, hosts: hosts, paths: paths, decoding: decoding, pointer: pointer)
    }

    private func decoding(_ node: JSONNode, at pointer: JSONPointer, issues: inout [WrapperIssue]) -> WrapperDecoding? {
        guard let kind = string(node, "decode", at: pointer, issues: &issues) else { return nil }
        guard let known = WrapperDecoding.kinds.first(where: { $0.name == kind }) else {
            let names = WrapperDecoding.kinds.map(\.name)
            var message =
                "\"decode\" is \"\(kind)\", which is not a decoding: use one of \(names.joined(separator: ", "))"
            if let suggestion = KeySuggestion.closest(to: kind, among: Set(names)) {
                message += "; did you mean \"\(suggestion)\"?"
            }
            issues.append(issue(.error, "E_WRAPPER_DECODE", message, pointer.appending("decode"), node["decode"]))
            return nil
        }
        let parameterNode = node["parameters"]
        guard known.takesParameters else {
            if parameterNode != nil {
                issues.append(
                    issue(
                        .error,
                        "E_CONFLICT",
                        "\"decode\": \"\(kind)\" reads no query parameter: remove \"parameters\"",
                        pointer.appending("parameters"),
                        parameterNode
                    )
                )
                return nil
            }
            return switch kind {
            case "proofpoint-v3": .proofpointV3
            case "last-path-segment": .lastPathSegment
            case "page": .page
            default: .opaque
            }
        }
        guard parameterNode != nil else {
            issues.append(
                issue(
                    .error,
                    "E_MISSING",
                    "\"decode\": \"\(kind)\" needs \"parameters\", the query parameter that holds the link",
                    pointer,
                    node
                )
            )
            return nil
        }
        guard
            let names = list(
                node,
                "parameters",
                at: pointer,
                issues: &issues,
                check: { $0.isEmpty ? .problem("a parameter name cannot be empty") : .value($0) }
            )
        else { return nil }
        if kind != "query", names.count > 1 {
            issues.append(
                issue(
                    .error,
                    "E_CONFLICT",
                    "\"decode\": \"\(kind)\" reads one query parameter; only \"query\" tries several in turn",
                    pointer.appending("parameters"),
                    parameterNode
                )
            )
            return nil
        }
        return switch kind {
        case "query": .query(names)
        case "proofpoint-v2": .proofpointV2(parameter: names[0])
        default: .base64(parameter: names[0])
        }
    }

    private func string(
        _ node: JSONNode,
        _ key: String,
        at pointer: JSONPointer,
        issues: inout [WrapperIssue]
    ) -> String? {
        guard let value = node[key] else {
            issues.append(issue(.error, "E_MISSING", "the wrapper entry has no \"\(key)\"", pointer, node))
            return nil
        }
        guard let text = value.stringValue else {
            issues.append(
                issue(
                    .error,
                    "E_TYPE",
                    "\"\(key)\" must be a string, not \(value.typeDescription)",
                    pointer.appending(key),
                    value
                )
            )
            return nil
        }
        return text
    }

    /// A non-empty array of strings, each checked by `check`.
    private func list<T>(
        _ node: JSONNode,
        _ key: String,
        at pointer: JSONPointer,
        issues: inout [WrapperIssue],
        check: (String) -> Checked<T>
    ) -> [T]? {
        let listPointer = pointer.appending(key)
        guard let value = node[key] else {
            issues.append(issue(.error, "E_MISSING", "the wrapper entry has no \"\(key)\"", pointer, node))
            return nil
        }
        guard let elements = value.elements, !elements.isEmpty else {
            issues.append(
                issue(
                    .error,
                    "E_TYPE",
                    "\"\(key)\" must be a non-empty array of strings, not \(value.elements == nil ? value.typeDescription : "an empty array")",
                    listPointer,
                    value
                )
            )
            return nil
        }
        var result: [T] = []
        var failed = false
        for (index, element) in elements.enumerated() {
            guard let text = element.stringValue else {
                issues.append(
                    issue(
                        .error,
                        "E_TYPE",
                        "each of \"\(key)\" must be a string, not \(element.typeDescription)",
                        listPointer.appending(index),
                        element
                    )
                )
                failed = true
                continue
            }
            switch check(text) {
            case .value(let item): result.append(item)
            case .problem(let problem):
                issues.append(issue(.error, "E_PATTERN", problem, listPointer.appending(index), element))
                failed = true
            }
        }
        return failed ? nil : result
    }

    private func issue(
        _ severity: WrapperIssue.Severity,
        _ code: String,
        _ message: String,
        _ pointer: JSONPointer,
        _ node: JSONNode?
    ) -> WrapperIssue {
        WrapperIssue(
            severity: severity,
            code: code,
            message: message,
            pointer: pointer,
            position: node?.position,
            file: file
        )
    }
}

/// An element of a list, checked: the value, or why it is refused.
private enum Checked<Value> {
    case value(Value)
    case problem(String)
}
