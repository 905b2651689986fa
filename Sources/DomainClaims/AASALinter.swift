import WebLinks

/// Finds what in an AASA file does not do what its author probably meant: everything reading reports (non-string
/// query values, `appID` beside `appIDs`, unknown keys, …), plus components no link can reach, exclusions after a
/// catch-all, undefined variables, and a file over Apple's 128 KiB.
public struct AASALinter: Sendable {
    /// Creates a linter.
    public init() {}

    /// Every diagnostic for the file's text, in file order; throws only when the text is not JSON.
    public func lint(_ bytes: some Collection<UInt8>) throws(DomainClaimsError) -> [ClaimsDiagnostic] {
        let array = Array(bytes)
        let root = try DomainClaimsError.parse(array)
        var diagnostics = AppSiteAssociation(json: root).diagnostics
        if array.count > AppSiteAssociation.maximumBytes {
            diagnostics.append(
                ClaimsDiagnostic(
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
                        ClaimsDiagnostic(
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

    /// Components an earlier one of the same detail always wins over.
    private func unreachable(in detail: AppLinksDetail, root: JSONNode) -> [ClaimsDiagnostic] {
        var diagnostics: [ClaimsDiagnostic] = []
        for (index, component) in detail.components.enumerated() {
            guard let earlier = detail.components[..<index].first(where: { $0.covers(component) }) else { continue }
            let code = component.exclude && earlier.isCatchAll ? "W_EXCLUSION_AFTER_CATCH_ALL" : "W_UNREACHABLE"
            let message =
                component.exclude && earlier.isCatchAll
                ? "this exclusion comes after the catch-all at \(earlier.pointer): it never excludes anything; move it first"
                : "every link this component matches is decided earlier, by \(earlier.pointer): it is never reached"
            diagnostics.append(
                ClaimsDiagnostic(
                    .warning,
                    code,
                    message,
                    at: component.pointer,
                    position: root.position(of: component.pointer)
                )
            )
        }
        return diagnostics
    }

    /// `diagnostics` by position in the file (those without one last), keeping the given order among equals.
    static func inFileOrder(_ diagnostics: [ClaimsDiagnostic]) -> [ClaimsDiagnostic] {
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

    /// A path pattern with its leading slash.
    private static func normalised(_ pattern: String) -> String { pattern.hasPrefix("/") ? pattern : "/" + pattern }
}
