import WebLinks

/// Which links change decision between two versions of an AASA file.
public struct AASADiff: Sendable {
    /// One link whose decision for one app differs.
    public struct Change: Sendable, Equatable, Codable {
        /// The link.
        public var url: String
        /// The app.
        public var appID: String
        /// The decision under the old file.
        public var old: ClaimDecision
        /// The decision under the new file.
        public var new: ClaimDecision
    }

    /// The old file.
    public let old: AppSiteAssociation
    /// The new file.
    public let new: AppSiteAssociation

    /// A diff of two files.
    public init(old: AppSiteAssociation, new: AppSiteAssociation) {
        self.old = old
        self.new = new
    }

    /// Every (link, app) whose decision differs, in the order of `urls` then of the apps (the old file's, then the
    /// new one's). Each link is decided for a file served on its own host; text that is not a link is skipped.
    public func changes(for urls: [String]) -> [Change] {
        var apps = old.appIDs
        apps += new.appIDs.filter { !apps.contains($0) }
        var changes: [Change] = []
        for url in urls {
            guard let link = try? Link(url) else { continue }
            for app in apps {
                let before = old.decision(for: app, link: link, domain: link.hostName)
                let after = new.decision(for: app, link: link, domain: link.hostName)
                if before.outcome != after.outcome {
                    changes.append(Change(url: link.text, appID: app, old: before, new: after))
                }
            }
        }
        return changes
    }

    /// Links made from both files' own patterns on `host`: for each component, its path, query and fragment with
    /// each wildcard and variable filled the shortest way and a longer way, and `/*` patterns' parents.
    public func sampleURLs(host: String = "example.com") -> [String] {
        var seen: Set<String> = []
        var urls: [String] = []
        for file in [old, new] {
            let variables = Dictionary(file.substitutionVariables.map { ($0.name, $0.values) }) { first, _ in first }
            for component in file.details.flatMap(\.components) {
                for url in Self.samples(of: component, variables: variables, host: host) where seen.insert(url).inserted
                {
                    urls.append(url)
                }
            }
        }
        return urls
    }

    private static func samples(
        of component: AppLinksComponent,
        variables: [String: [String]],
        host: String
    ) -> [String] {
        var results: [String] = []
        for filled in [false, true] {
            let path = AppLinksComponent.rootedPath(
                component.path.map { fill($0, filled: filled, variables: variables) } ?? (filled ? "/x" : "/")
            )
            var url = "https://\(host)\(path)"
            switch component.query {
            case .whole(let pattern)?:
                let query = fill(pattern, filled: filled, variables: variables)
                if !query.isEmpty { url += "?" + query }
            case .items(let items)?:
                let query = items.map { "\($0.name)=\(fill($0.pattern, filled: filled, variables: variables))" }
                if !query.isEmpty { url += "?" + query.joined(separator: "&") }
            case nil:
                break
            }
            if let fragment = component.fragment {
                let text = fill(fragment, filled: filled, variables: variables)
                if !text.isEmpty { url += "#" + text }
            }
            results.append(url)
        }
        return results
    }

    /// `pattern` with `*` as nothing (or `x1`), `?` as `x`, and each variable as one of its values.
    private static func fill(_ pattern: String, filled: Bool, variables: [String: [String]]) -> String {
        var result = ""
        var rest = Substring(pattern)
        while let character = rest.first {
            if rest.hasPrefix("$("), let close = rest.firstIndex(of: ")") {
                let name = String(rest[rest.index(rest.startIndex, offsetBy: 2)..<close])
                result += fill(variable(name, filled: filled, variables: variables), filled: filled, variables: [:])
                rest = rest[rest.index(after: close)...]
                continue
            }
            switch character {
            case "*": result += filled ? "x1" : ""
            case "?": result += "x"
            default: result.append(character)
            }
            rest = rest.dropFirst()
        }
        return result
    }

    private static func variable(_ name: String, filled: Bool, variables: [String: [String]]) -> String {
        switch name {
        case "alpha", "lower": return "a"
        case "upper": return "A"
        case "alnum", "digit", "xdigit": return "1"
        case "region": return "US"
        case "lang": return "en"
        default:
            let values = variables[name] ?? []
            return (filled ? values.last : values.first) ?? ""
        }
    }
}
