import Foundation
import Testing

/// One case of the domain-claims conformance protocol: a request line and the answer line it must get.
public struct ClaimsConformanceCase: Sendable, CustomTestStringConvertible {
    /// What the case shows, from Apple's or Google's documented behaviour.
    public let name: String
    /// The request line (one JSON object).
    public let request: String
    /// The exact answer line.
    public let answer: String

    /// The case's name, as the test report shows it.
    public var testDescription: String { name }
}

/// The project's own conformance cases, written from Apple's and Google's documentation and Apple's matcher
/// (`shared/spec/domain-associations.md`). DomainClaimsTests runs them through `ClaimsProtocol.answer`, and the CLI
/// tests through `switchyard claims --protocol`: both must give every answer line exactly.
public enum ClaimsConformanceCases {
    static let app = "ABCDE12345.com.example.app"
    static let other = "ZZZZZ99999.com.other.app"

    /// An AASA case: the file's `details` list (or a whole `applinks` body when `applinks` is given).
    static func aasa(
        _ name: String,
        _ url: String,
        _ decision: String,
        components: String? = nil,
        applinks: String? = nil,
        app: String = app,
        domain: String = "example.com"
    ) -> ClaimsConformanceCase {
        let body = applinks ?? #"{"details":[{"appIDs":["\#(Self.app)"],"components":\#(components ?? "[]")}]}"#
        let id = name.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF_FFFF }
        return ClaimsConformanceCase(
            name: name,
            request:
                #"{"id":\#(id),"aasa":{"applinks":\#(body)},"domain":"\#(domain)","appId":"\#(app)","url":"\#(url)"}"#,
            answer: #"{"id":\#(id),"decision":"\#(decision)"}"#
        )
    }

    static let fingerprint = (0..<32).map { String(format: "%02X", ($0 * 7 + 0x14) & 0xFF) }.joined(separator: ":")
    static let otherFingerprint = (0..<32).map { String(format: "%02X", ($0 * 5 + 0xA0) & 0xFF) }.joined(separator: ":")
    static let handleAll = "delegate_permission/common.handle_all_urls"
    static let wellKnown = "https://example.com/.well-known/assetlinks.json"

    static func appStatement(_ package: String = "com.example", fingerprints: [String] = [fingerprint]) -> String {
        let list = fingerprints.map { "\\\"\($0)\\\"" }.joined(separator: ",")
        return
            #"{\"relation\":[\"\#(handleAll)\"],\"target\":{\"namespace\":\"android_app\",\"package_name\":\"\#(package)\",\"sha256_cert_fingerprints\":[\#(list)]}}"#
    }

    static func include(_ url: String) -> String { #"{\"include\":\"\#(url)\"}"# }

    /// An asset-links case: `files` as a JSON object's members (bodies already escaped), the query's parts.
    static func links(
        _ name: String,
        files: String,
        source: String = "https://example.com",
        relation: String = handleAll,
        target: String? = nil,
        outcome: String,
        linked: Bool
    ) -> ClaimsConformanceCase {
        let id = name.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF_FFFF }
        let queried =
            target
            ?? #"{"namespace":"android_app","package_name":"com.example","sha256_cert_fingerprint":"\#(fingerprint)"}"#
        return ClaimsConformanceCase(
            name: name,
            request:
                #"{"id":\#(id),"files":{\#(files)},"source":"\#(source)","relation":"\#(relation)","target":\#(queried)}"#,
            answer: #"{"id":\#(id),"outcome":"\#(outcome)","linked":\#(linked)}"#
        )
    }

    /// Every case.
    public static var all: [ClaimsConformanceCase] { association + variables + assetLinks + protocolErrors }
}
