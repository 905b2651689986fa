import WebLinks

/// An apple-app-site-association file, read as Apple's matcher reads it and compiled to decide links.
///
/// Reading keeps going past odd parts: each is read as the matcher reads it and named in ``diagnostics``. Only text
/// that is not JSON at all throws. Deciding is pure and `Sendable`: compile a file once, decide any number of links.
public struct AppSiteAssociation: Sendable {
    /// The most bytes Apple fetches (128 KiB); a larger file is not read by devices.
    public static let maximumBytes = 128 * 1024

    /// The entries of `applinks.details`, in file order.
    public let details: [AppLinksDetail]
    /// The file's own variables (`applinks.substitutionVariables`), in file order.
    public let substitutionVariables: [SubstitutionVariable]
    /// What reading found odd or unusable, in file order.
    public let diagnostics: [Diagnostic]
    /// The size of the text it was read from, when read from text.
    public let byteCount: Int?

    /// Reads a parsed file.
    public init(json: JSONNode) {
        var reader = AASAReader()
        reader.read(json)
        details = reader.details
        substitutionVariables = reader.variables
        diagnostics = reader.diagnostics
        byteCount = nil
    }

    /// Reads a file's text; throws only when it is not JSON.
    public init(bytes: some Collection<UInt8>) throws(DomainClaimsError) {
        let array = Array(bytes)
        let json = try DomainClaimsError.parse(array)
        var reader = AASAReader()
        reader.read(json)
        details = reader.details
        substitutionVariables = reader.variables
        diagnostics = reader.diagnostics
        byteCount = array.count
    }

    /// Every app the file names, in file order, each once.
    public var appIDs: [String] {
        var seen: Set<String> = []
        return details.flatMap(\.appIDs).filter { seen.insert($0).inserted }
    }
}

/// One entry of `applinks.details`: the apps it is for and their components in order.
public struct AppLinksDetail: Sendable {
    /// The apps (`appIDs`, else the legacy `appID`, else the key of the oldest form's object).
    public let appIDs: [String]
    /// Where the entry is in the file.
    public let pointer: JSONPointer
    /// The components, or the legacy `paths` when there are no `components`, in order.
    public let components: [AppLinksComponent]
    /// The components' matchers, and their filters, in the same order.
    let matchers: [ComponentMatcher]
    let filters: [ComponentFilter]

    init(appIDs: [String], pointer: JSONPointer, components: [AppLinksComponent]) {
        self.appIDs = appIDs
        self.pointer = pointer
        self.components = components
        matchers = components.map(\.matcher)
        filters = matchers.map(ComponentFilter.init)
    }
}

/// One of the file's own variables: a name and its alternatives.
public struct SubstitutionVariable: Sendable, Equatable {
    /// The name used as `$(name)`.
    public let name: String
    /// The alternatives, each a pattern of its own (`*` and `?` allowed, no variables).
    public let values: [String]
    /// Where it is in the file.
    public let pointer: JSONPointer
}

/// Reads a parsed AASA file into details, collecting diagnostics.
struct AASAReader {
    var details: [AppLinksDetail] = []
    var variables: [SubstitutionVariable] = []
    var diagnostics: [Diagnostic] = []
    var variableValues: [String: [String]] = [:]

    static let componentKeys: Set<String> = ["/", "?", "#", "exclude", "caseSensitive", "percentEncoded", "comment"]

    mutating func warn(_ code: String, _ message: String, _ pointer: JSONPointer, _ node: JSONNode?) {
        diagnostics.append(Diagnostic(.warning, code, message, at: pointer, position: node?.position))
    }

    mutating func read(_ root: JSONNode) {
        guard root.members != nil else {
            diagnostics.append(
                Diagnostic(
                    .error,
                    "E_NOT_AN_OBJECT",
                    "the file is \(root.typeDescription), not an object: it claims nothing",
                    at: .root,
                    position: root.position
                )
            )
            return
        }
        let pointer = JSONPointer.root.appending("applinks")
        guard let applinks = root.lastMember("applinks") else {
            warn("W_NO_APPLINKS", "the file has no \"applinks\": it claims no links", .root, root)
            return
        }
        guard applinks.members != nil else {
            warn(
                "W_WRONG_TYPE",
                "\"applinks\" is \(applinks.typeDescription), not an object: it is ignored",
                pointer,
                applinks
            )
            return
        }
        let fileDefaults = defaults(in: applinks, at: pointer)
        readVariables(applinks.lastMember("substitutionVariables"), at: pointer.appending("substitutionVariables"))
        let detailsPointer = pointer.appending("details")
        guard let list = applinks.lastMember("details") else {
            warn("W_NO_DETAILS", "\"applinks\" has no \"details\": it claims no links", pointer, applinks)
            return
        }
        switch list.value {
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                readDetail(element, apps: nil, at: detailsPointer.appending(index), fileDefaults: fileDefaults)
            }
        case .object(let members):
            // The oldest form: details keyed by app ID. Foundation keeps the last of repeated keys.
            for member in JSONNode.lastOfEachKey(members) {
                readDetail(
                    member.value,
                    apps: [member.key],
                    at: detailsPointer.appending(member.key),
                    fileDefaults: fileDefaults
                )
            }
        default:
            warn(
                "W_WRONG_TYPE",
                "\"details\" is \(list.typeDescription), not an array: it is ignored",
                detailsPointer,
                list
            )
        }
    }

    mutating func defaults(in node: JSONNode, at pointer: JSONPointer) -> Defaults? {
        guard let defaults = node.lastMember("defaults") else { return nil }
        let place = pointer.appending("defaults")
        guard defaults.members != nil else {
            warn(
                "W_WRONG_TYPE",
                "\"defaults\" is \(defaults.typeDescription), not an object: it is ignored",
                place,
                defaults
            )
            return nil
        }
        for member in defaults.members ?? [] where !Self.componentKeys.contains(member.key) {
            warn(
                "W_UNKNOWN_KEY",
                "\"\(member.key)\" is not a key of a component or of defaults: it does nothing",
                place.appending(member.key),
                member.value
            )
        }
        return Defaults(node: defaults, pointer: place)
    }

    private mutating func readVariables(_ node: JSONNode?, at pointer: JSONPointer) {
        guard let node else { return }
        guard let members = node.members else {
            warn(
                "W_WRONG_TYPE",
                "\"substitutionVariables\" is \(node.typeDescription), not an object: it is ignored",
                pointer,
                node
            )
            return
        }
        for member in JSONNode.lastOfEachKey(members) {
            let place = pointer.appending(member.key)
            if PatternCompiler.isBuiltIn(member.key) {
                warn(
                    "W_BUILT_IN_VARIABLE",
                    "the variable \"\(member.key)\" is built in: the built-in one is used, not this list",
                    place,
                    member.value
                )
            }
            if member.key.contains(where: { $0 == "$" || $0 == "(" || $0 == ")" }) {
                warn(
                    "W_VARIABLE_NAME",
                    "the variable name \"\(member.key)\" contains $, ( or ): no pattern can name it",
                    place,
                    member.value
                )
            }
            guard let elements = member.value.elements else {
                warn(
                    "W_WRONG_TYPE",
                    "the variable \"\(member.key)\" is \(member.value.typeDescription), not an array of strings: it is ignored",
                    place,
                    member.value
                )
                continue
            }
            var values: [String] = []
            for (index, element) in elements.enumerated() {
                guard let value = element.stringValue else {
                    warn(
                        "W_NOT_STRING",
                        "a value of \"\(member.key)\" is \(element.typeDescription), not a string: it is ignored",
                        place.appending(index),
                        element
                    )
                    continue
                }
                if value.contains("$(") {
                    warn(
                        "W_VARIABLE_IN_VALUE",
                        "the value \"\(value)\" names a variable: variables are not expanded in values, so \"$(\" is matched as written",
                        place.appending(index),
                        element
                    )
                }
                values.append(value)
            }
            variables.append(SubstitutionVariable(name: member.key, values: values, pointer: place))
            variableValues[member.key] = values
        }
    }
}

/// A `defaults` object and where it is.
struct Defaults {
    let node: JSONNode
    let pointer: JSONPointer
}
