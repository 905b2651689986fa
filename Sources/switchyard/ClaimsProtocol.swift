import DomainClaims
import WebLinks

/// The conformance protocol of `switchyard claims --protocol`: one JSON request per line in, one JSON answer per
/// line out, and a bad line answered, never fatal.
///
/// - AASA: `{"id":0,"aasa":{…the file…},"domain":"example.com","appId":"ABCDE12345.com.example.app","url":"https://example.com/buy/42"}`
///   → `{"id":0,"decision":"match"}` (`match`, `exclude` or `no_match`). `aasa` may also be the file's text, as a
///   string.
/// - Asset links: `{"id":1,"files":{"https://example.com/.well-known/assetlinks.json":"<body>",…},"source":"https://example.com","relation":"delegate_permission/common.handle_all_urls","target":{"namespace":"android_app","package_name":"com.example","sha256_cert_fingerprint":"AA:…"}}`
///   → `{"id":1,"outcome":"success","linked":true}` (`success`, `fetch_error` or `query_parsing_error`). The target
///   may also be `{"namespace":"web","site":"https://other.example"}`.
/// - Anything else → `{"id":…,"error":"…"}`, with `"id":null` when the id cannot be read.
enum ClaimsProtocol {
    /// The answer line (without a newline) to one request line.
    static func answer(_ line: String) -> String {
        let request: JSONNode
        do {
            request = try JSONReader().parse(line)
        } catch {
            return reply(
                nil,
                ("error", quoted("the line is not JSON: \(error.message) at column \(error.position.column)"))
            )
        }
        guard request.members != nil else {
            return reply(nil, ("error", quoted("the line is \(request.typeDescription), not a JSON object")))
        }
        let id = request.lastMember("id")
        if let file = request.lastMember("aasa") {
            return aasa(request, file: file, id: id)
        }
        if request.lastMember("source") != nil || request.lastMember("files") != nil
            || request.lastMember("target") != nil
        {
            let answer = assetLinks(request)
            return reply(id, ("outcome", quoted(answer.outcome.rawValue)), ("linked", answer.linked ? "true" : "false"))
        }
        return reply(
            id,
            (
                "error",
                quoted("the request has neither \"aasa\" (an AASA decision) nor \"source\" (an asset-links check)")
            )
        )
    }

    private static func aasa(_ request: JSONNode, file: JSONNode, id: JSONNode?) -> String {
        var fields: [String: String] = [:]
        for key in ["domain", "appId", "url"] {
            // `appID`, as AASA files spell it, is read when `appId` is absent.
            guard let value = request.lastMember(key) ?? (key == "appId" ? request.lastMember("appID") : nil) else {
                return reply(id, ("error", quoted("the AASA request has no \"\(key)\"")))
            }
            guard let text = value.stringValue else {
                return reply(id, ("error", quoted("\"\(key)\" is \(value.typeDescription), not a string")))
            }
            fields[key] = text
        }
        let association: AppSiteAssociation
        if let text = file.stringValue {
            do {
                association = try AppSiteAssociation(bytes: Array(text.utf8))
            } catch {
                // A file that is not JSON claims nothing, as on a device.
                return reply(id, ("decision", quoted(ClaimDecision.Outcome.noMatch.rawValue)))
            }
        } else {
            association = AppSiteAssociation(json: file)
        }
        let decision = association.decision(
            for: fields["appId"] ?? "",
            url: fields["url"] ?? "",
            domain: fields["domain"] ?? ""
        )
        return reply(id, ("decision", quoted(decision.outcome.rawValue)))
    }

    /// The asset-links answer to a request object.
    static func assetLinks(_ request: JSONNode) -> AssetLinksAnswer {
        let parsingError = AssetLinksAnswer(outcome: .queryParsingError, linked: false, statement: nil, notes: [])
        guard let source = request.lastMember("source")?.stringValue.flatMap(querySite),
            let relation = request.lastMember("relation")?.stringValue, AssetRelation.isValid(relation),
            let target = request.lastMember("target").flatMap(queryTarget)
        else { return parsingError }
        var files: [String: String] = [:]
        for member in request.lastMember("files")?.members ?? [] {
            // A body that is not a string is no file: as if it were not served.
            if let body = member.value.stringValue { files[member.key] = body }
        }
        return AssetLinksChecker.check(
            AssetLinksQuery(source: source, relation: relation, target: target),
            files: AssetLinksFiles(files)
        )
    }

    /// The query's target: an app with one fingerprint (`sha256_cert_fingerprint`, or a one-element
    /// `sha256_cert_fingerprints`), or a site.
    private static func queryTarget(_ node: JSONNode) -> AssetTarget? {
        switch node.lastMember("namespace")?.stringValue {
        case "android_app":
            // The API's query names one fingerprint; a statement's plural list with exactly one is read the same.
            let plural = node.lastMember("sha256_cert_fingerprints")?.elements
            let single = node.lastMember("sha256_cert_fingerprint") ?? (plural?.count == 1 ? plural?.first : nil)
            // Validated before anything is fetched, as Google's API does: a name with white space is no package.
            guard let package = node.lastMember("package_name")?.stringValue, !package.isEmpty,
                !package.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 }),
                let text = single?.stringValue,
                let fingerprint = CertificateFingerprint(text)
            else { return nil }
            return .androidApp(packageName: package, fingerprint: fingerprint)
        case "web":
            return node.lastMember("site")?.stringValue.flatMap(querySite).map(AssetTarget.web)
        default:
            return nil
        }
    }

    /// A query's site: an origin as ``AssetSite`` reads it, written without surrounding white space (a statement's site
    /// is read as the file gives it; a query's is validated before anything is fetched, as Google's API does).
    private static func querySite(_ text: String) -> AssetSite? {
        guard text.unicodeScalars.first?.properties.isWhitespace != true,
            text.unicodeScalars.last?.properties.isWhitespace != true
        else { return nil }
        return AssetSite(text)
    }

    private static func quoted(_ text: String) -> String {
        var output = ""
        JSONWriter.appendQuoted(text, to: &output)
        return output
    }

    /// `{"id":…,` then the fields, compact; the id as it was written, or null.
    private static func reply(_ id: JSONNode?, _ fields: (String, String)...) -> String {
        var line = "{\"id\":" + (id.map { JSONWriter(style: .compact).write($0) } ?? "null")
        for (key, value) in fields { line += ",\(quoted(key)):\(value)" }
        return line + "}"
    }
}
