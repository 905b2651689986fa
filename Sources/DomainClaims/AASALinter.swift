import WebLinks

/// Finds what in an AASA file does not do what its author probably meant: everything reading reports (non-string
/// query values, `appID` beside `appIDs`, unknown keys, …), plus components no link can reach, exclusions after a
/// catch-all, undefined variables, and a file over Apple's 128 KiB.
public struct AASALinter: Sendable {
    /// Creates a linter.
    public init() {}

    /// Every diagnostic for the file's text, in file order; throws only when the text is not JSON.
    public func lint(_ bytes: some Collection<UInt8>) throws(DomainClaimsError) -> [Diagnostic] {
        let array = Array(bytes)
        let root = try DomainClaimsError.parse(array)
        var diagnostics = AppSiteAssociation(json: root).diagnostics
        if array.count > AppSiteAssociation.maximumBytes {
            diagnostics.append(
                Diagnostic(
                    .warning,
                    "W_TOO_LARGE",
                    "the file has \(array.count) bytes, more than the \(AppSiteAssociation.maximumBytes) (128 KiB) Apple reads: devices ignore it",
                    at: .root,
                    position: root.position
                )
            )
        }
        let association = AppSiteAssociation(json: root)
        for detail in association.details {
            diagnostics += unreachable(in: detail, root: root)
            for component in detail.components {
                for name in component.undefinedVariables {
                    diagnostics.append(
                        Diagnostic(
                            .warning,
                            "W_UNDEFINED_VARIABLE",
                            "the variable \"\(name)\" is neither built in nor in substitutionVariables: the pattern matches nothing",
                            at: component.pointer,
                            position: root.position(of: component.pointer)
                        )
                    )
                }
            }
        }
        return Self.inFileOrder(diagnostics)
    }

    /// Components an earlier one of the same detail always wins over. Only the earlier components that could cover
    /// one are compared with it (a catch-all, one without a path, one with the same path, one whose path is a literal
    /// start then `*` that this one's path begins with; at most 64 of each), so a file of thousands of components is
    /// linted in about the time it takes to read.
    private func unreachable(in detail: AppLinksDetail, root: JSONNode) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var catchAll: Int?
        var byKey: [String: [Int]] = [:]
        // The lengths of the literal starts filed so far: only those are looked up.
        var prefixLengths: Set<Int> = []
        let components = detail.components
        for (index, component) in components.enumerated() {
            var candidates = catchAll.map { [$0] } ?? []
            for key in component.coverKeys(prefixLengths: prefixLengths) {
                candidates += (byKey[key] ?? []).prefix(64)
            }
            let earlier = candidates.sorted().first { components[$0].covers(component) }.map { components[$0] }
            if let earlier {
                let afterCatchAll = component.exclude && earlier.isCatchAll
                diagnostics.append(
                    Diagnostic(
                        .warning,
                        afterCatchAll ? "W_EXCLUSION_AFTER_CATCH_ALL" : "W_UNREACHABLE",
                        afterCatchAll
                            ? "this exclusion comes after the catch-all at \(earlier.pointer): it never excludes anything; move it first"
                            : "every link this component matches is decided earlier, by \(earlier.pointer): it is never reached",
                        at: component.pointer,
                        position: root.position(of: component.pointer)
                    )
                )
            }
            if component.isCatchAll && catchAll == nil { catchAll = index }
            let key = component.ownKey
            if key.hasPrefix("<") { prefixLengths.insert(key.count - 1) }
            byKey[key, default: []].append(index)
        }
        return diagnostics
    }

    /// `diagnostics` by position in the file (those without one last), keeping the given order among equals.
    static func inFileOrder(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.enumerated().sorted { lhs, rhs in
            let left = lhs.element.position?.offset ?? Int.max
            let right = rhs.element.position?.offset ?? Int.max
            return left == right ? lhs.offset < rhs.offset : left < right
        }.map(\.element)
    }
}

extension AppLinksComponent {
    /// Whether the component matches every https link: no query or fragment condition, and no path or `*`/`/*`.
    var isCatchAll: Bool {
        query == nil && fragment.map(Self.isStars) ?? true && path.map { Self.isStars($0) || $0 == "/*" } ?? true
    }

    private static func isStars(_ pattern: String) -> Bool { !pattern.isEmpty && pattern.allSatisfy { $0 == "*" } }

    /// Whether every link `later` matches is matched by this component (a sufficient check, not a complete one): this
    /// one is a catch-all, or both compare the same way and this one's path is a literal prefix then `*` that `later`'s
    /// literal start begins with, with no other condition here and the same or more on `later`.
    func covers(_ later: AppLinksComponent) -> Bool {
        if isCatchAll { return true }
        guard caseSensitive == later.caseSensitive, percentEncoded == later.percentEncoded else { return false }
        let queryCovered = query == nil || query == later.query
        let fragmentCovered = fragment.map(Self.isStars) ?? true || fragment == later.fragment
        guard queryCovered, fragmentCovered else { return false }
        guard let path else { return true }
        guard let laterPath = later.path else { return false }
        if Self.normalised(path) == Self.normalised(laterPath) { return true }
        let own = Self.normalised(path)
        guard own.hasSuffix("*"), !own.dropLast().contains(where: { $0 == "*" || $0 == "?" || $0 == "$" }) else {
            return false
        }
        let literalStart = Self.normalised(laterPath).prefix { $0 != "*" && $0 != "?" && $0 != "$" }
        return literalStart.hasPrefix(own.dropLast())
    }

    /// The key under which the linter files this component as a possible cover of later ones: `` without a path,
    /// `=PATH` for a path, and also `<LITERAL` for a path that is a literal start then `*`.
    var ownKey: String {
        guard let path else { return "" }
        let own = Self.normalised(path)
        if own.hasSuffix("*"), !own.dropLast().contains(where: { $0 == "*" || $0 == "?" || $0 == "$" }) {
            return "<" + own.dropLast()
        }
        return "=" + own
    }

    /// The keys of the components that could cover this one: ``, its own path, and each start of its path's literal
    /// start (as `<LITERAL`) whose length is among `prefixLengths`.
    func coverKeys(prefixLengths: Set<Int>) -> [String] {
        guard let path else { return [""] }
        let own = Self.normalised(path)
        let literalStart = own.prefix { $0 != "*" && $0 != "?" && $0 != "$" }
        var keys = ["", "=" + own]
        for length in prefixLengths.sorted() where length <= literalStart.count {
            keys.append("<" + literalStart.prefix(length))
        }
        return keys
    }

    /// A path pattern as matching reads it: with its leading slash, without trailing ones.
    private static func normalised(_ pattern: String) -> String {
        var text = Substring(AppLinksComponent.rootedPath(pattern))
        while text.hasSuffix("/") { text = text.dropLast() }
        return String(text)
    }
}
