import Foundation
import Testing

/// One case of the device-prediction conformance protocol: a device, a link, and the answer the tap must get.
public struct PredictionCase: Sendable, CustomTestStringConvertible {
    /// What the case shows, from the platforms' documented behaviour.
    public let name: String
    /// The link tapped.
    public let link: String
    /// The device's members, as JSON text without the braces.
    public let device: String
    /// The `files` member, when the case gives domain files (then `predict` would fetch them instead).
    public let files: String?
    /// What opens: a package, an app ID, `browser`, `chooser`, `safari` or `none`.
    public let opens: String
    /// The candidates, in order.
    public let candidates: [String]

    /// The protocol's id of the case.
    public var id: Int { name.utf8.reduce(0) { ($0 &* 31 &+ Int($1)) & 0xFFFF } }

    /// The request line.
    public var request: String {
        #"{"id":\#(id),"link":"\#(link)",\#(device)\#(files.map { #","files":\#($0)"# } ?? "")}"#
    }

    /// The exact answer line.
    public var answer: String {
        let list = candidates.map { "\"\($0)\"" }.joined(separator: ",")
        return #"{"id":\#(id),"opens":"\#(opens)","candidates":[\#(list)]}"#
    }

    /// The device file of the case.
    public var deviceFile: String { "{\(device)}" }

    /// The case's name, as the test report shows it.
    public var testDescription: String { name }
}

/// The project's own prediction cases, written from Android's and Apple's documentation of what a tap opens
/// (`shared/spec/os-link-handling.md`): DevicePredictionTests runs them through the decision, the CLI tests through
/// `switchyard predict --protocol` and `switchyard predict --device`.
public enum PredictionCases {
    /// A certificate fingerprint in Digital Asset Links' form, and another.
    public static let fingerprint = (0..<32).map { String(format: "%02X", ($0 * 7 + 0x14) & 0xFF) }.joined(
        separator: ":"
    )
    static let otherFingerprint = (0..<32).map { String(format: "%02X", ($0 * 5 + 0xA0) & 0xFF) }.joined(separator: ":")

    /// An intent filter: VIEW, BROWSABLE and DEFAULT, https, `hosts`, `autoVerify`, and `extra` members.
    public static func filter(
        _ hosts: [String],
        schemes: [String] = ["https"],
        actions: [String] = ["VIEW"],
        categories: [String] = ["BROWSABLE", "DEFAULT"],
        autoVerify: Bool = true,
        extra: String = ""
    ) -> String {
        func list(_ items: [String]) -> String { "[" + items.map { "\"\($0)\"" }.joined(separator: ",") + "]" }
        return
            #"{"actions":\#(list(actions)),"categories":\#(list(categories)),"schemes":\#(list(schemes)),"hosts":\#(list(hosts)),"autoVerify":\#(autoVerify)\#(extra)}"#
    }

    /// An Android app: flags, filters (default: one for a.example), verified and selected hosts.
    public static func app(
        _ package: String,
        browser: Bool = false,
        enabled: Bool = true,
        component: Bool = true,
        linkHandling: Bool = true,
        order: Int = 1,
        filters: [String]? = nil,
        verified: [String]? = [],
        selected: [String] = [],
        extra: String = ""
    ) -> String {
        func list(_ items: [String]) -> String { "[" + items.map { "\"\($0)\"" }.joined(separator: ",") + "]" }
        let filters = filters ?? (browser ? [filter([], schemes: ["http", "https"])] : [filter(["a.example"])])
        let verifiedMember = verified.map { #","verified":\#(list($0))"# } ?? ""
        return
            #"{"package":"\#(package)","isBrowser":\#(browser),"enabled":\#(enabled),"componentEnabled":\#(component),"linkHandlingAllowed":\#(linkHandling),"firstInstallOrder":\#(order),"filters":[\#(filters.joined(separator: ","))]\#(verifiedMember),"userSelected":\#(list(selected))\#(extra)}"#
    }

    /// A browser.
    public static func browser(_ package: String = "com.browser", order: Int = 0) -> String {
        app(package, browser: true, order: order)
    }

    static func android(
        _ name: String,
        _ link: String,
        apps: [String],
        opens: String,
        _ candidates: [String],
        extra: String = "",
        files: String? = nil
    ) -> PredictionCase {
        PredictionCase(
            name: "android: " + name,
            link: link,
            device: #""platform":"android","sdk":33,"apps":[\#(apps.joined(separator: ","))]\#(extra)"#,
            files: files,
            opens: opens,
            candidates: candidates
        )
    }

    /// The AASA file claiming `/buy/*` (and excluding `/buy/private/*`) for `apps`, served for a.example.
    public static func aasa(_ apps: [String] = ["ABCDE12345.com.a"]) -> String {
        let list = apps.map { "\"\($0)\"" }.joined(separator: ",")
        return
            #"{"applinks":{"details":[{"appIDs":[\#(list)],"components":[{"/":"/buy/private/*","exclude":true},{"/":"/buy/*"}]}]}}"#
    }

    static func ios(
        _ name: String,
        _ link: String,
        apps: [String] = ["ABCDE12345.com.a"],
        aasa: String? = aasa(),
        domain: String = "a.example",
        tappedIn: String? = nil,
        openInSafari: [String] = [],
        extra: String = "",
        opens: String,
        _ candidates: [String]
    ) -> PredictionCase {
        let appList = apps.map { #"{"appId":"\#($0)"}"# }.joined(separator: ",")
        let safari = openInSafari.map { "\"\($0)\"" }.joined(separator: ",")
        var device = #""platform":"ios","apps":[\#(appList)],"openInSafari":[\#(safari)]"#
        if let aasa { device += #","aasa":\#(aasa),"domain":"\#(domain)""# }
        if let tappedIn { device += #","tappedIn":\#(tappedIn)"# }
        return PredictionCase(
            name: "ios: " + name,
            link: link,
            device: device + extra,
            files: nil,
            opens: opens,
            candidates: candidates
        )
    }

    /// An assetlinks.json that links `package` with `fingerprint`, as a JSON string of its text.
    public static func statements(_ package: String = "com.a", fingerprint: String = fingerprint) -> String {
        #"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"\#(package)","sha256_cert_fingerprints":["\#(fingerprint)"]}}]"#
    }

    /// Every case, both platforms.
    public static var all: [PredictionCase] { android + derived + ios }
}
