import WebLinks

extension AASAReader {
    /// Reads one entry of `details`; `apps` is the key of the oldest form's object.
    mutating func readDetail(_ node: JSONNode, apps: [String]?, at pointer: JSONPointer, fileDefaults: Defaults?) {
        guard node.members != nil else {
            warn("W_WRONG_TYPE", "a detail is \(node.typeDescription), not an object: it is ignored", pointer, node)
            return
        }
        let appIDs = apps ?? readApps(node, at: pointer)
        let detailDefaults = defaults(in: node, at: pointer)
        let levels = [detailDefaults, fileDefaults].compactMap { $0 }
        var components: [AppLinksComponent] = []
        if let list = node.lastMember("components") {
            // `paths` is ignored when `components` is present, whatever `components` holds.
            let place = pointer.appending("components")
            if let elements = list.elements {
                for (index, element) in elements.enumerated() {
                    if let component = readComponent(element, at: place.appending(index), defaults: levels) {
                        components.append(component)
                    }
                }
            } else {
                warn(
                    "W_WRONG_TYPE",
                    "\"components\" is \(list.typeDescription), not an array: the detail claims nothing",
                    place,
                    list
                )
            }
        } else if let list = node.lastMember("paths") {
            let place = pointer.appending("paths")
            if let elements = list.elements {
                for (index, element) in elements.enumerated() {
                    guard let text = element.stringValue else {
                        warn(
                            "W_NOT_STRING",
                            "a path is \(element.typeDescription), not a string: it is ignored",
                            place.appending(index),
                            element
                        )
                        continue
                    }
                    components.append(legacyPath(text, at: place.appending(index), defaults: levels))
                }
            } else {
                warn(
                    "W_WRONG_TYPE",
                    "\"paths\" is \(list.typeDescription), not an array: the detail claims nothing",
                    place,
                    list
                )
            }
        } else {
            warn(
                "W_NO_COMPONENTS",
                "the detail has neither \"components\" nor \"paths\": it claims nothing",
                pointer,
                node
            )
        }
        details.append(AppLinksDetail(appIDs: appIDs, pointer: pointer, components: components))
    }

    /// `appIDs` when present (even empty: `appID` is then ignored), else `appID`.
    private mutating func readApps(_ node: JSONNode, at pointer: JSONPointer) -> [String] {
        if let list = node.lastMember("appIDs") {
            let place = pointer.appending("appIDs")
            if let ignored = node.lastMember("appID") {
                warn(
                    "W_APPID_IGNORED",
                    "\"appID\" beside \"appIDs\" is ignored (even when \"appIDs\" is empty): move its app into \"appIDs\"",
                    pointer.appending("appID"),
                    ignored
                )
            }
            guard let elements = list.elements else {
                warn(
                    "W_WRONG_TYPE",
                    "\"appIDs\" is \(list.typeDescription), not an array of strings: the detail is for no app",
                    place,
                    list
                )
                return []
            }
            var apps: [String] = []
            for (index, element) in elements.enumerated() {
                if let app = element.stringValue {
                    apps.append(app)
                } else {
                    warn(
                        "W_NOT_STRING",
                        "an app ID is \(element.typeDescription), not a string: it is ignored",
                        place.appending(index),
                        element
                    )
                }
            }
            return apps
        }
        guard let app = node.lastMember("appID") else {
            warn("W_NO_APPS", "the detail has neither \"appIDs\" nor \"appID\": it is for no app", pointer, node)
            return []
        }
        guard let text = app.stringValue else {
            warn(
                "W_NOT_STRING",
                "\"appID\" is \(app.typeDescription), not a string: the detail is for no app",
                pointer.appending("appID"),
                app
            )
            return []
        }
        return [text]
    }

    /// The value a component has for `key`: its own, else the detail's `defaults`, else the file's.
    private func resolve(
        _ key: String,
        in node: JSONNode,
        at pointer: JSONPointer,
        defaults: [Defaults]
    ) -> (
        JSONNode, JSONPointer
    )? {
        if let own = node.lastMember(key) { return (own, pointer.appending(key)) }
        for level in defaults {
            if let value = level.node.lastMember(key) { return (value, level.pointer.appending(key)) }
        }
        return nil
    }

    private mutating func flag(
        _ key: String,
        in node: JSONNode,
        at pointer: JSONPointer,
        defaults: [Defaults],
        default fallback: Bool
    ) -> Bool {
        guard let (value, place) = resolve(key, in: node, at: pointer, defaults: defaults) else { return fallback }
        guard let flag = value.booleanValue else {
            warn(
                "W_WRONG_TYPE",
                "\"\(key)\" is \(value.typeDescription), not a boolean: it is ignored (\(fallback))",
                place,
                value
            )
            return fallback
        }
        return flag
    }

    private mutating func pattern(
        _ key: String,
        in node: JSONNode,
        at pointer: JSONPointer,
        defaults: [Defaults]
    ) -> String? {
        guard let (value, place) = resolve(key, in: node, at: pointer, defaults: defaults) else { return nil }
        guard let text = value.stringValue else {
            warn("W_NOT_STRING", "\"\(key)\" is \(value.typeDescription), not a string: it is ignored", place, value)
            return nil
        }
        return text
    }

    /// A component outside a detail (Dynamic App Links): no defaults; `comments` is a known key there.
    mutating func component(_ node: JSONNode, at pointer: JSONPointer) -> AppLinksComponent? {
        readComponent(node, at: pointer, defaults: [], extraKeys: ["comments"])
    }

    private mutating func readComponent(
        _ node: JSONNode,
        at pointer: JSONPointer,
        defaults: [Defaults],
        extraKeys: Set<String> = []
    ) -> AppLinksComponent? {
        guard let members = node.members else {
            warn("W_WRONG_TYPE", "a component is \(node.typeDescription), not an object: it is ignored", pointer, node)
            return nil
        }
        for member in members where !Self.componentKeys.contains(member.key) && !extraKeys.contains(member.key) {
            warn(
                "W_UNKNOWN_KEY",
                "\"\(member.key)\" is not a key of a component: it does nothing (keys are /, ?, #, exclude, caseSensitive, percentEncoded, comment)",
                pointer.appending(member.key),
                member.value
            )
        }
        var query: AppLinksComponent.QueryPattern?
        if let (value, place) = resolve("?", in: node, at: pointer, defaults: defaults) {
            switch value.value {
            case .string(let text):
                query = .whole(text)
            case .object(let items):
                if let bad = items.first(where: { $0.value.stringValue == nil }) {
                    warn(
                        "W_QUERY_NOT_STRING",
                        "the query item \"\(bad.key)\" is \(bad.value.typeDescription), not a string: the whole query dictionary is ignored",
                        place.appending(bad.key),
                        bad.value
                    )
                } else {
                    query = .items(
                        JSONNode.lastOfEachKey(items).map {
                            .init(name: $0.key, pattern: $0.value.stringValue ?? "")
                        }
                    )
                }
            default:
                warn(
                    "W_WRONG_TYPE",
                    "\"?\" is \(value.typeDescription), not a string or an object: it is ignored",
                    place,
                    value
                )
            }
        }
        return AppLinksComponent(
            pointer: pointer,
            path: pattern("/", in: node, at: pointer, defaults: defaults),
            query: query,
            fragment: pattern("#", in: node, at: pointer, defaults: defaults),
            exclude: flag("exclude", in: node, at: pointer, defaults: defaults, default: false),
            caseSensitive: flag("caseSensitive", in: node, at: pointer, defaults: defaults, default: true),
            percentEncoded: flag("percentEncoded", in: node, at: pointer, defaults: defaults, default: true),
            isLegacyPath: false,
            variables: variableValues
        )
    }

    /// A legacy `paths` string: `NOT ` first marks an exclusion; only the path is matched.
    private mutating func legacyPath(_ text: String, at pointer: JSONPointer, defaults: [Defaults]) -> AppLinksComponent
    {
        let exclude = text.hasPrefix("NOT ")
        let empty = JSONNode.make(.object([]))
        return AppLinksComponent(
            pointer: pointer,
            path: exclude ? String(text.dropFirst(4)) : text,
            query: nil,
            fragment: nil,
            exclude: exclude,
            caseSensitive: flag("caseSensitive", in: empty, at: pointer, defaults: defaults, default: true),
            percentEncoded: flag("percentEncoded", in: empty, at: pointer, defaults: defaults, default: true),
            isLegacyPath: true,
            variables: variableValues
        )
    }
}
