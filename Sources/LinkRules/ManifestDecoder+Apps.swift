/// Decoding of `apps` and `browsers` (which share the app keys).
extension ManifestDecoder {
    static let appKeys: Set<String> = [
        "identifier", "name", "displayName", "storeId", "storeIdentifier", "macStoreId", "iconURL", "scheme", "new",
        "platform", "country", "claims",
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
        var app = App(
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
        app.claims = object["claims"].flatMap { decodeClaimNames($0, at: pointer.appending("claims")) }
        return app
    }

    /// `"claims": {"appIDs": […], "androidPackages": […]}`: an app's names in domains' claims files. A name that is not
    /// of its form is an error and left out; an unknown key a warning.
    func decodeClaimNames(_ node: JSONNode, at pointer: JSONPointer) -> AppClaimNames? {
        guard node.members != nil else {
            report(
                .error,
                "E_TYPE",
                "\"claims\" must be an object such as {\"appIDs\": [\"ABCDE12345.com.example.app\"], \"androidPackages\": [\"com.example.app\"]}, not \(node.typeDescription)",
                at: pointer,
                node: node
            )
            return nil
        }
        var names = AppClaimNames()
        for member in node.members ?? [] {
            let place = pointer.appending(member.key)
            guard AppClaimNames.keys.contains(member.key) else {
                report(
                    .warning,
                    "W_UNKNOWN_KEY",
                    "\"\(member.key)\" is not a key of \"claims\" (appIDs, androidPackages); it is ignored",
                    at: place,
                    node: member.value
                )
                continue
            }
            guard let elements = member.value.elements else {
                report(
                    .error,
                    "E_TYPE",
                    "\"\(member.key)\" must be an array of strings, not \(member.value.typeDescription)",
                    at: place,
                    node: member.value
                )
                continue
            }
            let isAppID = member.key == "appIDs"
            for (index, element) in elements.enumerated() {
                guard let text = element.stringValue,
                    isAppID ? Self.isAppID(text) : Self.isAndroidPackage(text)
                else {
                    report(
                        .error,
                        "E_CLAIM_NAME",
                        isAppID
                            ? "\(element.stringValue.map { "\"\($0)\"" } ?? element.typeDescription) is not an App Store app ID (TEAMID.bundle.id, such as \"ABCDE12345.com.example.app\"); it is left out"
                            : "\(element.stringValue.map { "\"\($0)\"" } ?? element.typeDescription) is not an Android package name (such as \"com.example.app\"); it is left out",
                        at: place.appending(index),
                        node: element
                    )
                    continue
                }
                if isAppID { names.appIDs.append(text) } else { names.androidPackages.append(text) }
            }
        }
        return names
    }

    /// `TEAMID.bundle.id`: ten upper-case letters or digits, a dot, and a bundle ID (letters, digits, `-` and `.`).
    static func isAppID(_ text: String) -> Bool {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 10,
            parts[0].unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) })
        else { return false }
        return isDotted(parts[1], allowsHyphen: true)
    }

    /// A Java-style package: at least two dot-separated parts of letters, digits and `_`, each starting with a letter.
    static func isAndroidPackage(_ text: String) -> Bool {
        text.split(separator: ".", omittingEmptySubsequences: false).count >= 2
            && isDotted(Substring(text), allowsHyphen: false)
            && text.split(separator: ".").allSatisfy { $0.first?.isLetter == true }
    }

    private static func isDotted(_ text: Substring, allowsHyphen: Bool) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return !parts.isEmpty
            && parts.allSatisfy { part in
                !part.isEmpty
                    && part.unicodeScalars.allSatisfy {
                        $0.isASCII
                            && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_"
                                || (allowsHyphen && $0 == "-"))
                    }
            }
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
