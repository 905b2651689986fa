import DomainClaims
import WebLinks

/// A device's state, as a device file gives it: an Android 12+ device or an iPhone.
///
/// A device file is one JSON object (`Docs/device.schema.json`): `platform` (`android` or `ios`) and that platform's
/// keys. A wrong type, an unknown platform or a malformed host is refused with its JSON pointer; unknown keys are
/// ignored; a missing boolean is true and a missing list empty.
public enum Device: Sendable {
    /// An Android device.
    case android(AndroidDevice)
    /// An iPhone or iPad.
    case ios(IOSDevice)

    /// The platforms a device file may name.
    public static let platforms = ["android", "ios"]

    /// `android` or `ios`.
    public var platform: String {
        switch self {
        case .android: "android"
        case .ios: "ios"
        }
    }

    /// The most bytes a device file may have.
    public static let maximumBytes = 4 << 20

    /// Reads a device file's text.
    public init(bytes: some Collection<UInt8>) throws(PredictionError) {
        guard bytes.count <= Self.maximumBytes else {
            throw PredictionError(
                "the device file has \(bytes.count) bytes, more than the \(Self.maximumBytes) allowed"
            )
        }
        let node: JSONNode
        do {
            node = try JSONReader().parse(Array(bytes))
        } catch {
            throw PredictionError("the device file is not JSON: \(error.message)", position: error.position)
        }
        try self.init(json: node)
    }

    /// Reads a device file's JSON (a protocol line's: its `id`, `link` and `files` are the caller's).
    public init(json: JSONNode) throws(PredictionError) {
        let object = try DeviceObject(json, at: .root, what: "a device")
        guard let member = object.member("platform") else {
            throw PredictionError(
                "a device has no \"platform\": add \"platform\": \"android\" or \"ios\"",
                at: .root,
                position: json.position
            )
        }
        switch member.node.stringValue {
        case "android": self = .android(try AndroidDevice(object))
        case "ios": self = .ios(try IOSDevice(object))
        case let text?:
            throw object.error("\"\(text)\" is not a platform: write \"android\" or \"ios\"", member)
        case nil:
            throw object.wrongType("a string (\"android\" or \"ios\")", member)
        }
    }
}

extension AndroidDevice {
    init(_ object: DeviceObject) throws(PredictionError) {
        sdk = try object.integer("sdk")
        if let sdk, sdk < Self.minimumSDK, let member = object.member("sdk") {
            throw object.error(
                "API level \(sdk) is before Android 12 (31): the prediction models Android 12 and later",
                member
            )
        }
        defaultBrowser = try object.string("defaultBrowser")
        apps = try object.objects("apps", what: "an app") { (app) throws(PredictionError) in try AndroidApp(app) }
    }
}

extension AndroidApp {
    init(_ object: DeviceObject) throws(PredictionError) {
        package = try object.requiredString("package", what: "an app")
        isBrowser = try object.flag("isBrowser")
        enabled = try object.flag("enabled")
        componentEnabled = try object.flag("componentEnabled")
        linkHandlingAllowed = try object.flag("linkHandlingAllowed")
        // A first-install time (milliseconds, as PackageInfo.firstInstallTime) orders the same way.
        if let order = try object.integer("firstInstallOrder") {
            firstInstallOrder = order
        } else {
            firstInstallOrder = try object.integer("firstInstallTime") ?? 0
        }
        targetSDK = try object.integer("targetSdk")
        filters = try object.objects("filters", what: "an intent filter") { (filter) throws(PredictionError) in
            try IntentFilter(filter)
        }
        verified = try object.hosts("verified")
        userSelected = try object.hosts("userSelected") ?? []
        // Digital Asset Links' own spelling is read too.
        let key =
            object.member("fingerprints") == nil && object.member("sha256_cert_fingerprints") != nil
            ? "sha256_cert_fingerprints" : "fingerprints"
        fingerprints =
            try object.strings(key) { text in
                CertificateFingerprint(text) == nil
                    ? "\"\(text)\" is not a SHA-256 fingerprint: write 32 upper-case hex octets joined by colons (14:6D:E9:…)"
                    : nil
            }?.compactMap(CertificateFingerprint.init) ?? []
        pointer = object.pointer
    }
}

extension IntentFilter {
    /// The device file's list of each kind of `<data>` path.
    static let pathKeys: [(String, FilterPath.Kind)] = [
        ("paths", .path), ("pathPrefixes", .prefix), ("pathSuffixes", .suffix), ("pathPatterns", .pattern),
        ("pathAdvancedPatterns", .advancedPattern),
    ]

    init(_ object: DeviceObject) throws(PredictionError) {
        actions = try object.strings("actions") ?? []
        categories = try object.strings("categories") ?? []
        schemes = try object.strings("schemes") ?? []
        hosts = try object.hosts("hosts") ?? []
        autoVerify = try object.flag("autoVerify")
        var paths: [FilterPath] = []
        for (key, kind) in Self.pathKeys {
            guard let member = object.member(key) else { continue }
            for (index, text) in (try object.strings(key) ?? []).enumerated() {
                do {
                    paths.append(try FilterPath(kind, text))
                } catch {
                    let item = (member.node.elements?[index] ?? member.node, member.pointer.appending(index))
                    throw object.error("\"\(text)\" is not a path pattern Android reads: \(error.description)", item)
                }
            }
        }
        self.paths = paths
        pointer = object.pointer
    }
}

extension IOSDevice {
    init(_ object: DeviceObject) throws(PredictionError) {
        apps = try object.objects("apps", what: "an app") { (app) throws(PredictionError) in
            // `appID`, as AASA files spell it, is read when `appId` is absent.
            let key = app.member("appId") == nil && app.member("appID") != nil ? "appID" : "appId"
            return IOSApp(
                appID: try app.requiredString(key, what: "an app"),
                schemes: try app.strings("schemes") ?? [],
                pointer: app.pointer
            )
        }
        openInSafari = try object.hosts("openInSafari") ?? []
        tappedIn = try TapPlace(object.member("tappedIn"))
        let domain = try object.string("domain")
        if let domain, !HostName.isWellFormed(domain), let member = object.member("domain") {
            throw object.error("\"\(domain)\" is not a host: write the domain the file was served for", member)
        }
        association = try Self.association(object, domain: domain)
    }

    private static func association(_ object: DeviceObject, domain: String?) throws(PredictionError) -> Association {
        guard let member = object.member("aasa") else { return .unknown }
        switch member.node.value {
        case .null:
            return .none
        case .string(let text):
            // A file that is not JSON claims nothing, as on a device.
            guard let file = try? AppSiteAssociation(bytes: Array(text.utf8)) else { return .none }
            return .file(file, domain: domain)
        case .object:
            return .file(AppSiteAssociation(json: member.node), domain: domain)
        default:
            throw object.wrongType("the apple-app-site-association file (an object, or its text as a string)", member)
        }
    }
}

extension TapPlace {
    init(_ member: (node: JSONNode, pointer: JSONPointer)?) throws(PredictionError) {
        guard let member else {
            self = .app
            return
        }
        // The kind alone, as a string, for the places that need no domain.
        if let kind = member.node.stringValue {
            switch kind {
            case "app": self = .app
            case "addressBar": self = .addressBar
            case "redirect": self = .redirect
            case "safari", "webView":
                throw PredictionError(
                    "a tap in \(kind) names the page's domain: write {\"kind\": \"\(kind)\", \"domain\": …}",
                    at: member.pointer,
                    position: member.node.position
                )
            default:
                throw Self.unknownKind(kind, at: member)
            }
            return
        }
        let object = try DeviceObject(member.node, at: member.pointer, what: "\"tappedIn\"")
        let kind = try object.string("kind") ?? "app"
        func domain() throws(PredictionError) -> String {
            guard let field = object.member("domain") else {
                throw PredictionError(
                    "a tap in \(kind) names the page's \"domain\"",
                    at: object.pointer,
                    position: object.node.position
                )
            }
            guard let text = field.node.stringValue else { throw object.wrongType("a string", field) }
            guard HostName.isWellFormed(text) else {
                throw object.error("\"\(text)\" is not a host: write the page's domain, such as a.example", field)
            }
            return text
        }
        switch kind {
        case "app": self = .app
        case "safari": self = .safari(domain: try domain())
        case "webView": self = .webView(domain: try domain())
        case "addressBar": self = .addressBar
        case "redirect": self = .redirect
        default:
            throw Self.unknownKind(kind, at: object.member("kind") ?? member)
        }
    }

    private static func unknownKind(
        _ kind: String,
        at member: (node: JSONNode, pointer: JSONPointer)
    ) -> PredictionError {
        let kinds = TapPlace.kinds.map { "\"\($0)\"" }.joined(separator: ", ")
        return PredictionError(
            "\"\(kind)\" is not a place to tap: write one of \(kinds)",
            at: member.pointer,
            position: member.node.position
        )
    }
}
