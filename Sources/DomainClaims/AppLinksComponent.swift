import WebLinks

/// One entry of a detail's `components` (or one legacy `paths` string), with the keys its `defaults` supply filled in:
/// what it asks of a URL and whether a match is an exclusion.
public struct AppLinksComponent: Sendable {
    /// A path pattern as Apple's matcher reads its start: the leading `/` is optional (`buy/*` is `/buy/*`) and a run
    /// of them is one (`//abc` is `/abc`, so it matches `/abc` and not `//abc`).
    static func rootedPath(_ pattern: String) -> String {
        "/" + pattern.drop { $0 == "/" }
    }

    /// A component's query pattern.
    public enum QueryPattern: Sendable, Equatable {
        /// `"?": "pattern"`: matched against the whole query.
        case whole(String)
        /// `"?": {"name": "pattern", …}`: each named item must match, every occurrence of a repeated name too.
        case items([QueryItem])
    }

    /// One `"name": "pattern"` pair of a query dictionary.
    public struct QueryItem: Sendable, Equatable {
        /// The item's name, compared as written (folded when the component ignores case).
        public var name: String
        /// The pattern its value must match.
        public var pattern: String
    }

    /// Where the component is in the file (`/applinks/details/0/components/2` or `…/paths/1`).
    public let pointer: JSONPointer
    /// The path pattern (`/`), or nil when the component gives none (any path matches).
    public let path: String?
    /// The query pattern (`?`), or nil when none is given or it is ignored.
    public let query: QueryPattern?
    /// The fragment pattern (`#`), or nil when none is given.
    public let fragment: String?
    /// Whether a match excludes the URL.
    public let exclude: Bool
    /// Whether patterns compare case (default true).
    public let caseSensitive: Bool
    /// Whether the URL's parts are compared as written (default true) rather than percent-decoded.
    public let percentEncoded: Bool
    /// Whether the component comes from a legacy `paths` string.
    public let isLegacyPath: Bool
    /// Variables the patterns use that neither Apple nor the file defines (each makes its pattern match nothing).
    public let undefinedVariables: [String]

    let matcher: ComponentMatcher

    init(
        pointer: JSONPointer,
        path: String?,
        query: QueryPattern?,
        fragment: String?,
        exclude: Bool,
        caseSensitive: Bool,
        percentEncoded: Bool,
        isLegacyPath: Bool,
        variables: [String: [String]]
    ) {
        self.pointer = pointer
        self.path = path
        self.query = query
        self.fragment = fragment
        self.exclude = exclude
        self.caseSensitive = caseSensitive
        self.percentEncoded = percentEncoded
        self.isLegacyPath = isLegacyPath
        let compiler = PatternCompiler(variables: variables, ignoresCase: !caseSensitive)
        var undefined: [String] = []
        func compile(_ pattern: String) -> PatternMatcher {
            let compiled = compiler.compile(pattern)
            undefined += compiled.undefined
            return PatternMatcher(compiled.elements, ignoresCase: !caseSensitive)
        }
        let pathMatchers = path.map { pattern in
            let compiled = compiler.compile(Self.rootedPath(pattern))
            undefined += compiled.undefined
            return ComponentMatcher.pathAlternatives(compiled)
        }
        let queryMatcher: ComponentMatcher.Query? =
            switch query {
            case .whole(let pattern): .whole(compile(pattern))
            case .items(let items):
                .items(items.map { (caseSensitive ? $0.name : CaseFolding.fold($0.name), compile($0.pattern)) })
            case nil: nil
            }
        matcher = ComponentMatcher(
            path: pathMatchers.map { $0.map { PatternMatcher($0, ignoresCase: !caseSensitive) } },
            query: queryMatcher,
            fragment: fragment.map(compile),
            decoded: !percentEncoded,
            folded: !caseSensitive,
            exclude: exclude,
            pointer: pointer
        )
        undefinedVariables = undefined
    }

    /// Whether every part the component gives matches the link.
    func matches(_ parts: inout URLParts) -> Bool { matcher.matches(&parts) }
}

/// A component compiled: one matcher per part it gives, and what a match means. A class, so that deciding walks
/// references rather than copying each component.
final class ComponentMatcher: Sendable {
    enum Query: Sendable {
        case whole(PatternMatcher)
        case items([(name: String, value: PatternMatcher)])
    }

    /// The path pattern, and when it ends in `/*` its parent (`/buy/*` also matches `/buy`); nil: any path.
    let path: [PatternMatcher]?
    let query: Query?
    let fragment: PatternMatcher?
    let decoded: Bool
    let folded: Bool
    let exclude: Bool
    let pointer: JSONPointer

    init(
        path: [PatternMatcher]?,
        query: Query?,
        fragment: PatternMatcher?,
        decoded: Bool,
        folded: Bool,
        exclude: Bool,
        pointer: JSONPointer
    ) {
        self.path = path
        self.query = query
        self.fragment = fragment
        self.decoded = decoded
        self.folded = folded
        self.exclude = exclude
        self.pointer = pointer
    }

    func matches(_ parts: inout URLParts) -> Bool {
        if let path {
            let text = parts.path(decoded: decoded, folded: folded)
            guard path.contains(where: { $0.matches(text) }) else { return false }
        }
        switch query {
        case .whole(let matcher)?:
            guard matcher.matches(parts.query(decoded: decoded, folded: folded)) else { return false }
        case .items(let items)?:
            let present = parts.queryItems(decoded: decoded, folded: folded)
            for (name, matcher) in items {
                // An item the URL lacks reads as present and empty; every occurrence of a repeated one must match.
                guard let values = present[name] else {
                    guard matcher.matchesEmpty else { return false }
                    continue
                }
                guard values.allSatisfy(matcher.matches) else { return false }
            }
        case nil:
            break
        }
        if let fragment, !fragment.matches(parts.fragment(decoded: decoded, folded: folded)) { return false }
        return true
    }

    /// A path pattern's element lists: trailing slashes dropped (as from the URL's path), and when what is left ends
    /// in `/*`, also the parent without it.
    static func pathAlternatives(_ compiled: (elements: [PatternElement], undefined: [String])) -> [[PatternElement]] {
        let slash = PatternElement.scalar(UInt32(UInt8(ascii: "/")))
        var elements = compiled.elements
        while elements.last == slash { elements.removeLast() }
        guard elements.count >= 2, elements[elements.count - 1] == .star, elements[elements.count - 2] == slash else {
            return [elements]
        }
        var parent = Array(elements.dropLast(2))
        while parent.last == slash { parent.removeLast() }
        return [elements, parent]
    }
}
