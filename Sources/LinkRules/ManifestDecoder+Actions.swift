/// Decoding of `actions`, their `formats`, and `previews`.
extension ManifestDecoder {
    static let actionKeys: Set<String> = ["title", "regex", "headers", "includeHeaders", "testInputs", "formats"]
    static let formatKeys: Set<String> = [
        "appId", "appIdentifier", "app", "format", "script2", "script", "testResults",
    ]
    static let previewKeys: Set<String> = ["regex", "format", "script2", "script", "canSave"]

    /// One action; `appIds` are the apps its formats may name (nil: any, checked when the rules are combined, as for
    /// a user layer's actions, which name the apps of whatever manifest they are applied over).
    func decodeAction(_ object: JSONNode, at pointer: JSONPointer, appIds: Set<String>?) -> Action? {
        let title = string(object, ["title"], at: pointer)
        let regex = decodeRegex(object, at: pointer)
        let headers = bool(object, ["headers", "includeHeaders"], at: pointer)
        let testInputs = strings(object, ["testInputs"], at: pointer) ?? []
        var extras: [JSONMember] = []
        for member in object.members ?? [] where !Self.actionKeys.contains(member.key) {
            keepExtra(member, at: pointer.appending(member.key), into: &extras, known: Self.actionKeys)
        }
        var formats: [Format] = []
        if let formatsNode = object["formats"] {
            formats = decodeList(formatsNode, at: pointer.appending("formats")) {
                decodeFormat($0, at: $1, appIds: appIds, testInputCount: testInputs.count)
            }
        } else {
            report(.error, "E_MISSING", "the action has no \"formats\"", at: pointer, node: object)
        }
        guard let regex else { return nil }
        return Action(
            title: title,
            regex: regex,
            headers: headers,
            testInputs: testInputs,
            formats: formats,
            extras: extras,
            pointer: pointer
        )
    }

    func decodeFormat(
        _ object: JSONNode,
        at pointer: JSONPointer,
        appIds: Set<String>?,
        testInputCount: Int
    ) -> Format? {
        var inlineApp: App?
        var appId = string(object, ["appId", "appIdentifier"], at: pointer)
        if let appNode = object["app"] {
            let appPointer = pointer.appending("app")
            if appNode.members != nil {
                inlineApp = decodeApp(appNode, at: appPointer, known: Self.appKeys)
                appId = appId ?? inlineApp?.identifier
            } else {
                report(
                    .error,
                    "E_TYPE",
                    "\"app\" must be an app object, not \(appNode.typeDescription)",
                    at: appPointer,
                    node: appNode
                )
            }
        }
        let fields = outputFields(object, at: pointer)
        let testResults = optionalStrings(object, ["testResults"], at: pointer)
        if let testResults, testResults.count != testInputCount {
            report(
                .error,
                "E_TEST_LENGTH",
                "\"testResults\" has \(testResults.count, "entry", plural: "entries") but the action has \(testInputCount, "test input")",
                at: pointer.appending("testResults"),
                node: object["testResults"]
            )
        }
        var extras: [JSONMember] = []
        for member in object.members ?? [] where !Self.formatKeys.contains(member.key) {
            keepExtra(member, at: pointer.appending(member.key), into: &extras, known: Self.formatKeys)
        }
        guard let appId else {
            if object["app"] == nil {
                report(.error, "E_MISSING", "the format names no app: add \"appId\"", at: pointer, node: object)
            }
            return nil
        }
        if inlineApp == nil, let appIds, !appIds.contains(appId) {
            report(
                .error,
                "E_UNKNOWN_APP",
                "appId \"\(appId)\" names no app in \"apps\"; this format is ignored",
                at: pointer.appending(object["appId"] != nil ? "appId" : "appIdentifier"),
                node: nil
            )
            return nil
        }
        guard let fields else { return nil }
        return Format(
            appId: appId,
            inlineApp: inlineApp,
            fields: fields,
            testResults: testResults,
            extras: extras,
            pointer: pointer
        )
    }

    func decodePreview(_ object: JSONNode, at pointer: JSONPointer) -> Preview? {
        let regex = decodeRegex(object, at: pointer)
        let fields = outputFields(object, at: pointer)
        let canSave = bool(object, ["canSave"], at: pointer)
        var extras: [JSONMember] = []
        for member in object.members ?? [] where !Self.previewKeys.contains(member.key) {
            keepExtra(member, at: pointer.appending(member.key), into: &extras, known: Self.previewKeys)
        }
        guard let regex, let fields else { return nil }
        return Preview(regex: regex, fields: fields, canSave: canSave, extras: extras, pointer: pointer)
    }

    /// The `regex` member, checked for presence, emptiness and size (compiling it is the resolver's job).
    func decodeRegex(_ object: JSONNode, at pointer: JSONPointer) -> String? {
        guard let regex = string(object, ["regex"], at: pointer, required: true) else { return nil }
        if regex.isEmpty {
            report(
                .error,
                "E_EMPTY_REGEX",
                "the regex is empty, so it would match every input; this entry is ignored",
                at: pointer.appending("regex"),
                node: object["regex"]
            )
            return nil
        }
        if regex.utf16.count > limits.maximumRegexLength {
            report(
                .error,
                "E_TOO_LARGE",
                "the regex has \(regex.utf16.count) characters, more than the limit of \(limits.maximumRegexLength)",
                at: pointer.appending("regex"),
                node: object["regex"]
            )
            return nil
        }
        return regex
    }

    /// `format` / `script2` / `script`: exactly one way to produce a URL (`script` may accompany `script2`).
    func outputFields(_ object: JSONNode, at pointer: JSONPointer) -> OutputFields? {
        let fields = OutputFields(
            template: string(object, ["format"], at: pointer),
            script2: string(object, ["script2"], at: pointer),
            script: string(object, ["script"], at: pointer)
        )
        guard fields.template != nil || fields.script2 != nil || fields.script != nil else {
            report(
                .error,
                "E_MISSING",
                "there is neither \"format\" nor \"script2\": nothing produces a URL; this entry is ignored",
                at: pointer,
                node: object
            )
            return nil
        }
        if fields.template != nil && (fields.script2 != nil || fields.script != nil) {
            report(
                .warning,
                "W_FORMAT_AND_SCRIPT",
                "\"format\" and a script are mutually exclusive; the template is used",
                at: pointer.appending("format"),
                node: object["format"]
            )
        }
        for (key, source) in [("script2", fields.script2), ("script", fields.script)] {
            if let source, source.utf16.count > limits.maximumScriptLength {
                report(
                    .error,
                    "E_TOO_LARGE",
                    "\"\(key)\" has \(source.utf16.count) characters, more than the limit of \(limits.maximumScriptLength)",
                    at: pointer.appending(key),
                    node: object[key]
                )
                return nil
            }
        }
        if let template = fields.template, let scheme = OutputSafety.leadingScheme(of: template),
            OutputSafety.forbiddenSchemes.contains(scheme.lowercased())
        {
            report(
                .error,
                "E_FORBIDDEN_SCHEME",
                "the template produces a \"\(scheme):\" URL, which could run code in the receiving app; this entry is ignored",
                at: pointer.appending("format"),
                node: object["format"]
            )
            return nil
        }
        return fields
    }

    func checkTestLengths(inputs: [String], results: [String?]?, at pointer: JSONPointer) {
        if let results, results.count != inputs.count {
            report(
                .error,
                "E_TEST_LENGTH",
                "\"testResults\" has \(results.count, "entry", plural: "entries") but there are \(inputs.count, "test input")",
                at: pointer.appending("testResults"),
                node: nil
            )
        }
    }
}
