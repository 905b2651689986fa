import WebLinks

/// One statement of a Digital Asset Links list: a relation from the site to a target.
public struct AssetStatement: Sendable, Equatable {
    /// The relation (`delegate_permission/common.handle_all_urls`).
    public let relation: String
    /// The app or site it points at.
    public let target: AssetTarget
    /// Where the statement is in its file.
    public let pointer: JSONPointer
    /// The Dynamic App Links components the statement gives for its relation (`relation_extensions`), in order;
    /// empty when it gives none (then which paths is the app's intent filters' business).
    public let dynamicComponents: [AppLinksComponent]

    /// Two statements are equal when relation, target and pointer are.
    public static func == (lhs: AssetStatement, rhs: AssetStatement) -> Bool {
        lhs.relation == rhs.relation && lhs.target == rhs.target && lhs.pointer == rhs.pointer
    }
}

/// A Digital Asset Links statement list (`assetlinks.json`), read as Google's API reads it: a malformed statement is
/// skipped and the others kept; several relations or fingerprints in one statement are several statements.
public struct AssetStatementList: Sendable {
    /// The statements, in file order.
    public let statements: [AssetStatement]
    /// The `include` URLs, in file order, with where each is.
    public let includes: [(url: String, pointer: JSONPointer)]
    /// What was skipped, and why.
    public let diagnostics: [Diagnostic]

    /// Reads a file's text; throws when it is not JSON or not an array (the list is then unusable).
    public init(bytes: some Collection<UInt8>) throws(DomainClaimsError) {
        let json = try DomainClaimsError.parse(Array(bytes))
        guard let elements = json.elements else {
            throw DomainClaimsError(
                code: .notADocument,
                message: "a statement list is an array, not \(json.typeDescription)",
                position: json.position
            )
        }
        var reader = StatementReader()
        for (index, element) in elements.enumerated() { reader.read(element, at: JSONPointer.root.appending(index)) }
        statements = reader.statements
        includes = reader.includes
        diagnostics = reader.diagnostics
    }

    /// The statements for `relation`, in file order.
    public func statements(for relation: String) -> [AssetStatement] {
        statements.filter { $0.relation == relation }
    }
}

/// Reads the elements of a statement list.
struct StatementReader {
    /// The codes of the statements (or parts of one) that are invalid and skipped: what Google's API reports as an
    /// error beside its answer. Dynamic App Links components are not among them (the API does not read them).
    static let invalidStatementCodes: Set<String> = [
        "W_STATEMENT", "W_INCLUDE", "W_RELATION", "W_TARGET", "W_FINGERPRINT",
    ]

    var statements: [AssetStatement] = []
    var includes: [(url: String, pointer: JSONPointer)] = []
    var diagnostics: [Diagnostic] = []

    mutating func skip(_ code: String, _ message: String, _ pointer: JSONPointer, _ node: JSONNode) {
        diagnostics.append(Diagnostic(.warning, code, message, at: pointer, position: node.position))
    }

    mutating func read(_ node: JSONNode, at pointer: JSONPointer) {
        guard node.members != nil else {
            return skip(
                "W_STATEMENT",
                "a statement is \(node.typeDescription), not an object: it is skipped",
                pointer,
                node
            )
        }
        if let include = node.lastMember("include") {
            guard let url = include.stringValue else {
                return skip(
                    "W_INCLUDE",
                    "\"include\" is \(include.typeDescription), not a URL: it is skipped",
                    pointer.appending("include"),
                    include
                )
            }
            includes.append((url, pointer.appending("include")))
            return
        }
        guard let relationNode = node.lastMember("relation"), let relationList = relationNode.elements else {
            return skip("W_STATEMENT", "the statement has no \"relation\" array: it is skipped", pointer, node)
        }
        var relations: [String] = []
        for (index, element) in relationList.enumerated() {
            guard let relation = element.stringValue, AssetRelation.isValid(relation) else {
                skip(
                    "W_RELATION",
                    "the relation \(element.stringValue.map { "\"\($0)\"" } ?? element.typeDescription) is not kind/detail of [a-z0-9_.]: it is skipped",
                    pointer.appending("relation").appending(index),
                    element
                )
                continue
            }
            relations.append(relation)
        }
        guard let targetNode = node.lastMember("target"), targetNode.members != nil else {
            return skip("W_TARGET", "the statement has no \"target\" object: it is skipped", pointer, node)
        }
        let targets = readTargets(targetNode, at: pointer.appending("target"))
        let extensions = node.lastMember("relation_extensions")
        for relation in relations {
            let dynamic = dynamicComponents(
                extensions,
                relation: relation,
                at: pointer.appending("relation_extensions")
            )
            for target in targets {
                statements.append(
                    AssetStatement(relation: relation, target: target, pointer: pointer, dynamicComponents: dynamic)
                )
            }
        }
    }

    private mutating func readTargets(_ node: JSONNode, at pointer: JSONPointer) -> [AssetTarget] {
        switch node.lastMember("namespace")?.stringValue {
        case "android_app":
            guard let package = node.lastMember("package_name")?.stringValue, !package.isEmpty else {
                skip(
                    "W_TARGET",
                    "an android_app target needs a \"package_name\": the statement is skipped",
                    pointer,
                    node
                )
                return []
            }
            guard let list = node.lastMember("sha256_cert_fingerprints")?.elements else {
                skip(
                    "W_TARGET",
                    "an android_app target needs \"sha256_cert_fingerprints\", an array: the statement is skipped",
                    pointer,
                    node
                )
                return []
            }
            var targets: [AssetTarget] = []
            for (index, element) in list.enumerated() {
                guard let fingerprint = element.stringValue.flatMap(CertificateFingerprint.init) else {
                    skip(
                        "W_FINGERPRINT",
                        "the fingerprint \(element.stringValue.map { "\"\($0)\"" } ?? element.typeDescription) is not 32 upper-case hex octets joined by colons: it is skipped",
                        pointer.appending("sha256_cert_fingerprints").appending(index),
                        element
                    )
                    continue
                }
                targets.append(.androidApp(packageName: package, fingerprint: fingerprint))
            }
            return targets
        case "web":
            guard let site = node.lastMember("site")?.stringValue.flatMap(AssetSite.init) else {
                skip(
                    "W_TARGET",
                    "a web target needs a \"site\" such as \"https://example.com\": the statement is skipped",
                    pointer,
                    node
                )
                return []
            }
            return [.web(site)]
        default:
            skip(
                "W_TARGET",
                "the target's \"namespace\" is neither \"android_app\" nor \"web\": the statement is skipped",
                pointer,
                node
            )
            return []
        }
    }

    /// `relation_extensions[relation].dynamic_app_link_components`, read with the AASA component grammar.
    private mutating func dynamicComponents(
        _ extensions: JSONNode?,
        relation: String,
        at pointer: JSONPointer
    ) -> [AppLinksComponent] {
        guard let entry = extensions?.lastMember(relation),
            let list = entry.lastMember("dynamic_app_link_components")
        else { return [] }
        let place = pointer.appending(relation).appending("dynamic_app_link_components")
        guard let elements = list.elements else {
            skip(
                "W_DYNAMIC",
                "\"dynamic_app_link_components\" is \(list.typeDescription), not an array: it is ignored",
                place,
                list
            )
            return []
        }
        var reader = AASAReader()
        var components: [AppLinksComponent] = []
        for (index, element) in elements.enumerated() {
            if let component = reader.component(element, at: place.appending(index)) { components.append(component) }
        }
        diagnostics += reader.diagnostics
        return components
    }
}
