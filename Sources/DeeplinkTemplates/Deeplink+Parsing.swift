import Foundation

extension Deeplink {
    /// Matches `url` and writes its arguments into `value`; properties the template does not mention keep their
    /// value, and an argument with no text in the URL becomes `""`.
    ///
    /// Paths are matched by default; a template that contains `?` also matches the query and needs the link to have
    /// one, and a template with `#` matches the fragment and needs the link to have one. In the query, a pair whose
    /// name is literal is found by name, in any order, unknown ones ignored; a pair whose name is an argument takes
    /// the link's pair at the same position.
    public func parse(_ url: URL, into value: inout Value) throws(DeeplinkError) {
        try checkScope(url)
        let (pathComponents, queryComponents, fragmentComponents) = split()
        let parts = Self.parts(of: url)
        var working = value
        try Self.match(pathComponents, against: parts.path, part: "path", into: &working, exact: true)
        if let queryComponents {
            // With pairs to find, a link without a query says which is missing; an empty query part needs the "?".
            if parts.query == nil && queryComponents.isEmpty {
                throw DeeplinkError(.literalMismatch, "the link has no query, and the template \(pattern) has \"?\"")
            }
            try Self.matchQuery(queryComponents, against: parts.query ?? "", into: &working)
        }
        if let fragmentComponents {
            guard let fragment = parts.fragment else {
                throw DeeplinkError(
                    .literalMismatch,
                    "the link has no fragment, and the template \(pattern) has \"#\""
                )
            }
            try Self.match(fragmentComponents, against: fragment, part: "fragment", into: &working, exact: true)
        }
        value = working
    }

    /// Whether the template matches `url` (values are discarded).
    public func matches(_ url: URL, startingWith value: Value) -> Bool {
        var copy = value
        return (try? parse(url, into: &copy)) != nil
    }

    func checkScope(_ url: URL) throws(DeeplinkError) {
        if let scheme, url.scheme?.lowercased() != scheme.lowercased() {
            throw DeeplinkError(
                .wrongScope,
                "the scheme is \"\(url.scheme ?? "")\", the template \(pattern) is for \"\(scheme)\""
            )
        }
        if let host, (url.host ?? "").lowercased() != host.lowercased() {
            throw DeeplinkError(
                .wrongScope,
                "the host is \"\(url.host ?? "")\", the template \(pattern) is for \"\(host)\""
            )
        }
    }

    /// The template's components split at its first literal `?` and `#`.
    func split() -> (path: [Component], query: [Component]?, fragment: [Component]?) {
        var path: [Component] = []
        var query: [Component]?
        var fragment: [Component]?
        func add(_ component: Component) {
            if fragment != nil {
                fragment?.append(component)
            } else if query != nil {
                query?.append(component)
            } else {
                path.append(component)
            }
        }
        for component in components {
            guard case .literal(var text) = component else {
                add(component)
                continue
            }
            while let marker = text.firstIndex(where: {
                ($0 == "?" && query == nil && fragment == nil) || ($0 == "#" && fragment == nil)
            }) {
                let before = String(text[..<marker])
                if !before.isEmpty { add(.literal(before)) }
                if text[marker] == "?" { query = [] } else { fragment = [] }
                text = String(text[text.index(after: marker)...])
            }
            if !text.isEmpty { add(.literal(text)) }
        }
        return (path, query, fragment)
    }

    /// Path, query and fragment of any URL form: `https://host/path`, `scheme:///path`, and `scheme://item/path`,
    /// where an app's custom scheme uses the "host" as the first path segment (`app://item?id=1` is `/item`).
    ///
    /// The schemes the WHATWG URL Standard calls special (``specialSchemes``) have a host, which is never part of
    /// the path: `ftp://apple.com/test` and `file://localhost/test` have the path `/test` (and `file:///test`, with
    /// its empty host, too).
    static func parts(of url: URL) -> (path: String, query: String?, fragment: String?) {
        let text = url.absoluteString
        var rest = Substring(text)
        if let schemeEnd = rest.range(of: "://") {
            let scheme = rest[..<schemeEnd.lowerBound].lowercased()
            rest = rest[schemeEnd.upperBound...]
            let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            rest = rest.dropFirst(host.count)
            if !specialSchemes.contains(scheme) && !host.isEmpty {
                let remainder = Parts.split(rest)
                return ("/" + host + remainder.path, remainder.query, remainder.fragment)
            }
        } else if let colon = rest.firstIndex(of: ":") {
            rest = rest[rest.index(after: colon)...]
        }
        return Parts.split(rest)
    }

    /// The WHATWG URL Standard's special schemes: their links name a host, as `http` links do. Any other scheme is
    /// an app's own, whose "host" is the first segment of its route.
    static var specialSchemes: Set<String> { whatwgSpecialSchemes }

    /// Literals must match exactly; an argument takes the text up to the next literal, or at the end up to the
    /// next `/`, `?`, `#` or `&` (a catch-all takes the rest); `exact` requires nothing but a `/` to be left.
    static func match(
        _ components: [Component],
        against target: String,
        part: String,
        into value: inout Value,
        exact: Bool
    ) throws(DeeplinkError) {
        var position = target.startIndex
        for (index, component) in components.enumerated() {
            switch component {
            case .literal(let text):
                guard target[position...].hasPrefix(text) else {
                    let found = target[position...].prefix(text.count + 8)
                    let offset = target.distance(from: target.startIndex, to: position)
                    throw DeeplinkError(
                        .literalMismatch,
                        "in the \(part), expected \"\(text)\" at offset \(offset), found \"\(found)\""
                    )
                }
                position = target.index(position, offsetBy: text.count)
            case .argument(let slot):
                // Up to the next literal; when that literal is not there, the argument ends like a last one does
                // (so the mismatch is reported where the URL departs from the template).
                let segmentEnd =
                    slot.extent == .rest
                    ? target.endIndex : (target[position...].firstIndex { "/?#&".contains($0) } ?? target.endIndex)
                var end = segmentEnd
                if index + 1 < components.count, case .literal(let next) = components[index + 1],
                    let found = target[position...].range(of: next)?.lowerBound
                {
                    end = found
                }
                let raw = String(target[position..<end])
                guard slot.write(&value, slot.items(raw)) else {
                    let text = raw.removingPercentEncoding ?? raw
                    throw DeeplinkError(
                        .invalidArgument,
                        "in the \(part), \"\(text)\" is not a valid value for {\(slot.name)}"
                    )
                }
                position = end
            }
        }
        let rest = target[position...]
        if exact, !rest.isEmpty, rest != "/" {
            throw DeeplinkError(.trailingText, "the \(part) goes on after the template: \"\(rest.prefix(40))\"")
        }
    }

    /// The query part of a template is `name=value` pairs, separated by `&` as in the link. A pair whose name is
    /// literal is found by name in the link's query, in any order; a pair whose name holds an argument takes the
    /// link's pair at the same position (empty pairs, `&&`, are not counted on either side). A pair with no value
    /// in the template (`ref=`, `{name}=`, `ref`) asks only that the link have the pair.
    static func matchQuery(
        _ components: [Component],
        against query: String,
        into value: inout Value
    ) throws(DeeplinkError) {
        let linkPairs = query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (name: String(parts[0]), value: parts.count > 1 ? String(parts[1]) : nil)
        }
        var byName: [String: String] = [:]
        for pair in linkPairs {
            let name = pair.name.removingPercentEncoding ?? pair.name
            if byName[name] == nil { byName[name] = pair.value ?? "" }
        }
        for (position, pair) in queryPairs(components).enumerated() {
            if pair.name.contains(where: \.isArgument) {
                guard position < linkPairs.count else {
                    let names = pair.name.compactMap(\.argumentName).map { "{\($0)}" }.joined(separator: ", ")
                    throw DeeplinkError(
                        .missingParameter,
                        "the query has no pair at position \(position + 1), where the template reads \(names)"
                    )
                }
                let found = linkPairs[position]
                let part = "query pair \(position + 1)"
                guard let valueComponents = pair.value else {
                    let whole = found.name + (found.value.map { "=" + $0 } ?? "")
                    try match(pair.name, against: whole, part: part, into: &value, exact: true)
                    continue
                }
                try match(pair.name, against: found.name, part: part, into: &value, exact: true)
                if !valueComponents.isEmpty {
                    try match(valueComponents, against: found.value ?? "", part: part, into: &value, exact: true)
                }
            } else {
                let name = pair.name.compactMap(\.literalText).joined()
                guard let found = byName[name] else {
                    throw DeeplinkError(.missingParameter, "the query has no parameter \"\(name)\"")
                }
                if let valueComponents = pair.value, !valueComponents.isEmpty {
                    try match(
                        valueComponents,
                        against: found,
                        part: "query parameter \"\(name)\"",
                        into: &value,
                        exact: true
                    )
                }
            }
        }
    }

    /// The template's query pairs, split at each literal `&`, and each at its first literal `=`: the name's
    /// components, and the value's (nil when the pair has no `=`). Empty pairs are left out.
    static func queryPairs(_ components: [Component]) -> [(name: [Component], value: [Component]?)] {
        var pairs: [(name: [Component], value: [Component]?)] = [([], nil)]
        func add(_ component: Component) {
            if pairs[pairs.count - 1].value != nil {
                pairs[pairs.count - 1].value?.append(component)
            } else {
                pairs[pairs.count - 1].name.append(component)
            }
        }
        for component in components {
            guard case .literal(let text) = component else {
                add(component)
                continue
            }
            for (offset, piece) in text.split(separator: "&", omittingEmptySubsequences: false).enumerated() {
                if offset > 0 { pairs.append(([], nil)) }
                var rest = piece
                if pairs[pairs.count - 1].value == nil, let equals = rest.firstIndex(of: "=") {
                    if equals > rest.startIndex { add(.literal(String(rest[..<equals]))) }
                    pairs[pairs.count - 1].value = []
                    rest = rest[rest.index(after: equals)...]
                }
                if !rest.isEmpty { add(.literal(String(rest))) }
            }
        }
        return pairs.filter { !$0.name.isEmpty || $0.value != nil }
    }
}

extension Deeplink.Component {
    var isArgument: Bool {
        if case .argument = self { true } else { false }
    }

    var argumentName: String? {
        if case .argument(let slot) = self { slot.name } else { nil }
    }

    var literalText: String? {
        if case .literal(let text) = self { text } else { nil }
    }
}

extension Deeplink where Value == Void {
    /// Matches a literal-only template; throws when the URL does not match.
    public func parse(_ url: URL) throws(DeeplinkError) {
        var nothing: Void = ()
        try parse(url, into: &nothing)
    }
}

/// Splits what follows the authority into path, query and fragment.
enum Parts {
    static func split(_ rest: Substring) -> (path: String, query: String?, fragment: String?) {
        let fragmentStart = rest.firstIndex(of: "#")
        let fragment = fragmentStart.map { String(rest[rest.index(after: $0)...]) }
        let beforeFragment = rest[..<(fragmentStart ?? rest.endIndex)]
        let queryStart = beforeFragment.firstIndex(of: "?")
        let query = queryStart.map { String(beforeFragment[beforeFragment.index(after: $0)...]) }
        return (String(beforeFragment[..<(queryStart ?? beforeFragment.endIndex)]), query, fragment)
    }
}

/// ``Deeplink/specialSchemes``, built once (a generic type cannot store it, and the computed property built the set
/// anew for every link parsed).
private let whatwgSpecialSchemes: Set<String> = ["http", "https", "ws", "wss", "ftp", "file"]
