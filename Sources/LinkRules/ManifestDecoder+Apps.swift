/// Decoding of `apps` and `browsers` (which share the app keys).
extension ManifestDecoder {
    static let appKeys: Set<String> = [
        "identifier", "name", "displayName", "storeId", "storeIdentifier", "macStoreId", "iconURL", "scheme", "new",
        "platform", "country",
    ]
    static let browserKeys: Set<String> = appKeys.union([
        "regex", "format", "script2", "script", "testInputs", "testResults",
    ])

    func decodeApps(_ node: JSONNode, at pointer: JSONPointer) -> [App] {
        var seen: [String: Int] = [:]
        var apps: [App] = []
        for (index, app) in decodeIndexedList(node, at: pointer, { decodeApp($0, at: $1, known: Self.appKeys) }) {
            if let first = seen[app.identifier] {
                report(
                    .error,
                    "E_DUPLICATE_ID",
                    "the app identifier \"\(app.identifier)\" is already used by /apps/\(first); this entry is ignored (the first one wins)",
                    at: pointer.appending(index).appending("identifier"),
                    node: nil
                )
                continue
            }
            seen[app.identifier] = index
            apps.append(app)
        }
        return apps
    }

    /// Like `decodeList`, but keeps each element's index in the file.
    func decodeIndexedList<T>(
        _ node: JSONNode,
        at pointer: JSONPointer,
        _ decode: (JSONNode, JSONPointer) -> T?
    ) -> [(Int, T)] {
        var index = -1
        let values: [(Int, T)] = decodeList(node, at: pointer) { element, elementPointer in
            index = Int(elementPointer.tokens.last ?? "") ?? index + 1
            return decode(element, elementPointer).map { (index, $0) }
        }
        return values
    }

    /// One app object; `nil` (with diagnostics) when it lacks what an app needs.
    func decodeApp(_ object: JSONNode, at pointer: JSONPointer, known: Set<String>) -> App? {
        let identifier = string(object, ["identifier"], at: pointer, required: true)
        let name = string(object, ["name", "displayName"], at: pointer, required: true)
        let rawScheme = string(object, ["scheme"], at: pointer, required: true)
        let storeId = storeIdentifier(object, ["storeId", "storeIdentifier"], at: pointer)
        let macStoreId = storeIdentifier(object, ["macStoreId"], at: pointer)
        let iconURL = string(object, ["iconURL"], at: pointer)
        let isNew = bool(object, ["new"], at: pointer)
        let country = string(object, ["country"], at: pointer)
        var platform: Platform?
        if let text = string(object, ["platform"], at: pointer) {
            platform = Platform(rawValue: text)
            if platform == nil {
                report(
                    .warning,
                    "W_UNKNOWN_PLATFORM",
                    "platform \"\(text)\" is neither \"phone\" nor \"pad\"; the app shows on both",
                    at: pointer.appending("platform"),
                    node: object["platform"]
                )
            }
        }
        var extras: [JSONMember] = []
        for member in object.members ?? [] where !known.contains(member.key) {
            keepExtra(member, at: pointer.appending(member.key), into: &extras, known: known)
        }
        guard let identifier, let name, let rawScheme, case .success(let store) = storeId,
            case .success(let macStore) = macStoreId
        else { return nil }
        guard !identifier.isEmpty else {
            report(
                .error,
                "E_MISSING",
                "the app identifier is empty",
                at: pointer.appending("identifier"),
                node: object["identifier"]
            )
            return nil
        }
        let scheme = Self.normalizedScheme(rawScheme)
        guard Self.isValidScheme(scheme) else {
            report(
                .error,
                "E_SCHEME",
                "scheme \"\(rawScheme)\" is not a URL scheme (letters, digits, '+', '-', '.'; starting with a letter)",
                at: pointer.appending("scheme"),
                node: object["scheme"]
            )
            return nil
        }
        return App(
            identifier: identifier,
            name: name,
            scheme: scheme,
            storeId: store,
            macStoreId: macStore,
            iconURL: iconURL,
            isNew: isNew,
            platform: platform,
            country: country,
            extras: extras,
            pointer: pointer
        )
    }

    /// `twitter://`, `twitter:` and `twitter` all mean the scheme `twitter`.
    static func normalizedScheme(_ scheme: String) -> String {
        if scheme.hasSuffix("://") { return String(scheme.dropLast(3)) }
        if scheme.hasSuffix(":") { return String(scheme.dropLast()) }
        return scheme
    }

    /// RFC 3986: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
    static func isValidScheme(_ scheme: String) -> Bool {
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else {
            return false
        }
        return scheme.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
        }
    }

    func decodeBrowsers(_ node: JSONNode, at pointer: JSONPointer) -> [Browser] {
        var seen: [String: Int] = [:]
        var browsers: [Browser] = []
        for (index, browser) in decodeIndexedList(node, at: pointer, { decodeBrowser($0, at: $1) }) {
            if let first = seen[browser.app.identifier] {
                report(
                    .error,
                    "E_DUPLICATE_ID",
                    "the browser identifier \"\(browser.app.identifier)\" is already used by /browsers/\(first); this entry is ignored",
                    at: pointer.appending(index).appending("identifier"),
                    node: nil
                )
                continue
            }
            seen[browser.app.identifier] = index
            browsers.append(browser)
        }
        return browsers
    }

    func decodeBrowser(_ object: JSONNode, at pointer: JSONPointer) -> Browser? {
        let app = decodeApp(object, at: pointer, known: Self.browserKeys)
        let regex = decodeRegex(object, at: pointer)
        let fields = outputFields(object, at: pointer)
        let testInputs = strings(object, ["testInputs"], at: pointer) ?? []
        let testResults = optionalStrings(object, ["testResults"], at: pointer)
        checkTestLengths(inputs: testInputs, results: testResults, at: pointer)
        guard var app, let regex, let fields else { return nil }
        app.extras = app.extras.filter { !Self.browserKeys.contains($0.key) }
        return Browser(
            app: app,
            regex: regex,
            fields: fields,
            testInputs: testInputs,
            testResults: testResults,
            pointer: pointer
        )
    }
}
