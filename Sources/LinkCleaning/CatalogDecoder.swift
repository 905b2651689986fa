import LinkMatching
import LinkRules

/// Reads a catalog's JSON tree into providers, translating and compiling every regex, and collecting a located
/// diagnostic for everything it leaves out.
struct CatalogDecoder {
    /// The code of a refused regex.
    static let refusedCode = "E_CLEANING_REGEX"
    static let patternLists: [CleaningRule.Kind] = [.rules, .rawRules, .referralMarketing, .exceptions, .redirections]
    static let knownKeys: Set<String> =
        Set(patternLists.map(\.rawValue) + ["urlPattern", "completeProvider", "forceRedirection"])

    let file: String?

    func decode(_ bytes: [UInt8]) throws(CleaningError) -> CleaningCatalog {
        let root: JSONNode
        do {
            root = try JSONReader().parse(bytes)
        } catch {
            let diagnostic = Diagnostic(
                .error,
                error.code.rawValue,
                error.message,
                at: .root,
                position: error.position,
                file: file
            )
            throw CleaningError(.invalidJSON, diagnostic.description, diagnostics: [diagnostic])
        }
        guard let providersNode = root["providers"], let members = providersNode.members else {
            let found =
                root["providers"].map { "\"providers\" is \($0.typeDescription)" } ?? "there is no \"providers\""
            let diagnostic = Diagnostic(
                .error,
                CleaningError.Code.invalidCatalog.rawValue,
                "not a ClearURLs catalog: \(found); expected {\"providers\": {NAME: {\"urlPattern\": …}, …}}",
                at: root["providers"] == nil ? .root : JSONPointer.root.appending("providers"),
                position: root["providers"]?.position ?? root.position,
                file: file
            )
            throw CleaningError(.invalidCatalog, diagnostic.description, diagnostics: [diagnostic])
        }
        var diagnostics: [Diagnostic] = []
        var providers: [CleaningProvider] = []
        var seen: [String: Int] = [:]
        for member in members {
            let pointer = JSONPointer.root.appending("providers").appending(member.key)
            guard let provider = decodeProvider(member.key, member.value, at: pointer, into: &diagnostics) else {
                continue
            }
            if let earlier = seen[member.key] {
                // JSON.parse keeps the last value of a repeated key.
                diagnostics.append(
                    Diagnostic(
                        .warning,
                        "W_DUPLICATE_PROVIDER",
                        "the provider \"\(member.key)\" is defined again; the later definition is used",
                        at: pointer,
                        position: member.keyPosition,
                        file: file
                    )
                )
                providers[earlier] = provider
            } else {
                seen[member.key] = providers.count
                providers.append(provider)
            }
        }
        return CleaningCatalog(providers: providers, diagnostics: diagnostics)
    }

    private func diagnostic(
        _ severity: Diagnostic.Severity,
        _ code: String,
        _ message: String,
        _ pointer: JSONPointer,
        _ node: JSONNode?
    ) -> Diagnostic {
        Diagnostic(severity, code, message, at: pointer, position: node?.position, file: file)
    }

    private func decodeProvider(
        _ name: String,
        _ node: JSONNode,
        at pointer: JSONPointer,
        into diagnostics: inout [Diagnostic]
    ) -> CleaningProvider? {
        guard let members = node.members else {
            diagnostics.append(
                diagnostic(
                    .error,
                    "E_TYPE",
                    "the provider \"\(name)\" is \(node.typeDescription), not an object; it is skipped",
                    pointer,
                    node
                )
            )
            return nil
        }
        for member in members where !Self.knownKeys.contains(member.key) {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "W_UNKNOWN_KEY",
                    "the provider \"\(name)\" has the unknown key \"\(member.key)\", which is ignored",
                    at: pointer.appending(member.key),
                    position: member.keyPosition,
                    file: file
                )
            )
        }
        let urlPointer = pointer.appending("urlPattern")
        guard let urlNode = node["urlPattern"], let urlSource = urlNode.stringValue else {
            let found = node["urlPattern"].map { "is \($0.typeDescription), not a string" } ?? "is missing"
            diagnostics.append(
                diagnostic(
                    .error,
                    "E_URL_PATTERN",
                    "the urlPattern of provider \"\(name)\" \(found); the provider is skipped",
                    urlPointer,
                    node["urlPattern"] ?? node
                )
            )
            return nil
        }
        let urlRule = CleaningRule(provider: name, kind: .urlPattern, index: nil, pattern: urlSource)
        guard
            let urlPattern = compile(urlRule, node: urlNode, into: &diagnostics, consequence: "the provider is skipped")
        else { return nil }
        guard let complete = flag("completeProvider", of: node, name: name, at: pointer, into: &diagnostics),
            let force = flag("forceRedirection", of: node, name: name, at: pointer, into: &diagnostics)
        else { return nil }
        var lists: [CleaningRule.Kind: [CleaningPattern]] = [:]
        for kind in Self.patternLists {
            lists[kind] = patterns(kind, of: node, name: name, at: pointer, into: &diagnostics)
        }
        return CleaningProvider(
            name: name,
            urlPattern: urlPattern,
            completeProvider: complete,
            rules: lists[.rules] ?? [],
            rawRules: lists[.rawRules] ?? [],
            referralMarketing: lists[.referralMarketing] ?? [],
            exceptions: lists[.exceptions] ?? [],
            redirections: lists[.redirections] ?? [],
            forceRedirection: force
        )
    }

    /// A boolean member: absent is false; another type skips the provider (nil).
    private func flag(
        _ key: String,
        of node: JSONNode,
        name: String,
        at pointer: JSONPointer,
        into diagnostics: inout [Diagnostic]
    ) -> Bool? {
        guard let value = node[key] else { return false }
        if case .bool(let flag) = value.value { return flag }
        diagnostics.append(
            diagnostic(
                .error,
                "E_TYPE",
                "\(key) of provider \"\(name)\" is \(value.typeDescription), not true or false; the provider is skipped",
                pointer.appending(key),
                value
            )
        )
        return nil
    }

    private func patterns(
        _ kind: CleaningRule.Kind,
        of node: JSONNode,
        name: String,
        at pointer: JSONPointer,
        into diagnostics: inout [Diagnostic]
    ) -> [CleaningPattern] {
        guard let list = node[kind.rawValue] else { return [] }
        guard let elements = list.elements else {
            diagnostics.append(
                diagnostic(
                    .error,
                    "E_TYPE",
                    "\(kind.rawValue) of provider \"\(name)\" is \(list.typeDescription), not an array of strings; it is ignored",
                    pointer.appending(kind.rawValue),
                    list
                )
            )
            return []
        }
        var result: [CleaningPattern] = []
        for (index, element) in elements.enumerated() {
            guard let source = element.stringValue else {
                diagnostics.append(
                    diagnostic(
                        .error,
                        "E_TYPE",
                        "\(kind.rawValue)/\(index) of provider \"\(name)\" is \(element.typeDescription), not a string; it is ignored",
                        pointer.appending(kind.rawValue).appending(index),
                        element
                    )
                )
                continue
            }
            let rule = CleaningRule(provider: name, kind: kind, index: index, pattern: source)
            if let pattern = compile(
                rule,
                node: element,
                into: &diagnostics,
                consequence: "the rest of the provider is used"
            ) {
                result.append(pattern)
            }
        }
        return result
    }

    /// Translates and compiles one regex; a refusal is a located diagnostic naming the provider and the rule.
    private func compile(
        _ rule: CleaningRule,
        node: JSONNode,
        into diagnostics: inout [Diagnostic],
        consequence: String
    ) -> CleaningPattern? {
        // The add-on matches field names as "^" + rule + "$" (no group around the rule), case-insensitively.
        let isFieldName = rule.kind == .rules || rule.kind == .referralMarketing
        let source = isFieldName ? "^" + rule.pattern + "$" : rule.pattern
        let reason: String
        do throws(JavaScriptRegex.Refusal) {
            let translated = try JavaScriptRegex.translate(source)
            do throws(RegexCompileError) {
                let regex = try CompiledRegex(translated)
                if rule.kind == .redirections && regex.groupCount == 0 {
                    reason = "it has no capture group, so there is no target to redirect to"
                } else {
                    return CleaningPattern(rule: rule, icuPattern: translated, regex: regex)
                }
            } catch {
                reason = "ICU cannot compile its translation \"\(translated)\": \(error.reason)"
            }
        } catch {
            reason = error.reason
        }
        let place = rule.index.map { "\(rule.kind.rawValue)/\($0)" } ?? rule.kind.rawValue
        diagnostics.append(
            diagnostic(
                .error,
                Self.refusedCode,
                "\(place) of provider \"\(rule.provider)\", \"\(rule.pattern)\", is refused: \(reason); \(consequence)",
                rule.pointer,
                node
            )
        )
        return nil
    }
}
