import Foundation
import Testing

extension PredictionCases {
    static let buy = "https://a.example/buy/42"
    static let appA = "ABCDE12345.com.a"
    static let appB = "FGHIJ67890.com.b"

    /// iOS: the AASA decision for installed apps, where the tap happens, Open in Safari, several claimed apps, custom
    /// schemes (`os-link-handling.md`).
    static var ios: [PredictionCase] {
        [
            ios("a tap in another app opens the claimed app", buy, opens: appA, [appA]),
            ios("no tappedIn is a tap in another app", buy, tappedIn: nil, opens: appA, [appA]),
            ios("an explicit tap in an app", buy, tappedIn: #"{"kind":"app"}"#, opens: appA, [appA]),
            ios("a claimed app that is not installed: Safari", buy, apps: [appB], opens: "safari", []),
            ios("an excluded path stays in Safari", "https://a.example/buy/private/1", opens: "safari", []),
            ios("a path no component matches stays in Safari", "https://a.example/help", opens: "safari", []),
            ios(
                "a tap on a page of the same domain in Safari stays in Safari",
                buy,
                tappedIn: #"{"kind":"safari","domain":"a.example"}"#,
                opens: "safari",
                []
            ),
            ios(
                "a tap on a page of another domain in Safari opens the app",
                buy,
                tappedIn: #"{"kind":"safari","domain":"news.example"}"#,
                opens: appA,
                [appA]
            ),
            ios(
                "a subdomain's page is another domain",
                buy,
                tappedIn: #"{"kind":"safari","domain":"www.a.example"}"#,
                opens: appA,
                [appA]
            ),
            ios(
                "a tap in a web view of the same domain stays in the browser",
                buy,
                tappedIn: #"{"kind":"webView","domain":"A.Example"}"#,
                opens: "safari",
                []
            ),
            ios(
                "typed or pasted into the address bar: Safari",
                buy,
                tappedIn: #"{"kind":"addressBar"}"#,
                opens: "safari",
                []
            ),
            ios("reached by a redirect: Safari", buy, tappedIn: #"{"kind":"redirect"}"#, opens: "safari", []),
            ios("the place to tap as its kind alone", buy, tappedIn: #""addressBar""#, opens: "safari", []),
            ios("a tap in an app as its kind alone", buy, tappedIn: #""app""#, opens: appA, [appA]),
            ios("the user sent the domain to Safari before", buy, openInSafari: ["a.example"], opens: "safari", []),
            ios(
                "Open in Safari for another domain does not count",
                buy,
                openInSafari: ["b.example"],
                opens: appA,
                [appA]
            ),
            ios("no file on the device: Safari", buy, aasa: nil, opens: "safari", []),
            ios("a file the device has not fetched (null): Safari", buy, aasa: "null", opens: "safari", []),
            ios(
                "the file given as its text",
                buy,
                aasa: "\"" + aasa().replacingOccurrences(of: "\"", with: "\\\"") + "\"",
                opens: appA,
                [appA]
            ),
            ios("a file that is not JSON claims nothing", buy, aasa: #""not json""#, opens: "safari", []),
            ios("a file served for another domain claims nothing here", buy, domain: "b.example", opens: "safari", []),
            ios("an http link never opens an app", "http://a.example/buy/42", opens: "safari", []),
            ios(
                "several claimed apps: each is named, the first in the file given, the choice the system's",
                buy,
                apps: [appB, appA],
                aasa: aasa([appA, appB]),
                opens: appA,
                [appA, appB]
            ),
            ios(
                "of several claimed apps only the installed ones count",
                buy,
                apps: [appB],
                aasa: aasa([appA, appB]),
                opens: appB,
                [appB]
            ),
            ios(
                "a custom scheme opens the app that registers it",
                "twitter://status?id=20",
                apps: [],
                extra: #","apps":[{"appId":"\#(appA)","schemes":["twitter"]}]"#,
                opens: appA,
                [appA]
            ),
            ios("a custom scheme no app registers opens nothing", "twitter://status?id=20", opens: "none", []),
            ios(
                "unknown keys are ignored, appID is read for appId",
                buy,
                apps: [],
                extra: #","apps":[{"appID":"\#(appA)","icon":"a.png"}],"carrier":"x""#,
                opens: appA,
                [appA]
            ),
        ]
    }

    /// Requests the protocol answers with an error naming the place: the id as written and how the message begins.
    public static let errors: [PredictionErrorCase] = [
        .init("not JSON", "not json", id: "null", "the line is not JSON"),
        .init("not an object", "[1]", id: "null", "the line is an array, not a JSON object"),
        .init("no link", #"{"id":1,"platform":"android"}"#, id: "1", #"the request has no "link""#),
        .init(
            "no platform",
            #"{"id":2,"link":"https://a.example/"}"#,
            id: "2",
            #"the document: a device has no "platform""#
        ),
        .init(
            "an unknown platform",
            #"{"id":3,"link":"https://a.example/","platform":"windows"}"#,
            id: "3",
            #"/platform: "windows" is not a platform"#
        ),
        .init(
            "a wrong type",
            #"{"id":"x","link":"https://a.example/","platform":"android","apps":[{"package":"com.a","enabled":"yes"}]}"#,
            id: #""x""#,
            "/apps/0/enabled: expected true or false, found a string"
        ),
        .init(
            "a malformed host",
            #"{"id":5,"link":"https://a.example/","platform":"android","apps":[{"package":"com.a","filters":[{"hosts":["a.example","https://b.example/"]}]}]}"#,
            id: "5",
            #"/apps/0/filters/0/hosts/1: "https://b.example/" is not a host"#
        ),
        .init(
            "a malformed selected host",
            #"{"id":6,"link":"https://a.example/","platform":"android","apps":[{"package":"com.a","userSelected":["a b"]}]}"#,
            id: "6",
            #"/apps/0/userSelected/0: "a b" is not a host"#
        ),
        .init(
            "an app without a package",
            #"{"id":7,"link":"https://a.example/","platform":"android","apps":[{"isBrowser":true}]}"#,
            id: "7",
            #"/apps/0: an app has no "package""#
        ),
        .init(
            "a fingerprint in lower case",
            #"{"id":8,"link":"https://a.example/","platform":"android","apps":[{"package":"com.a","fingerprints":["ab:cd"]}]}"#,
            id: "8",
            #"/apps/0/fingerprints/0: "ab:cd" is not a SHA-256 fingerprint"#
        ),
        .init(
            "an API level before Android 12",
            #"{"id":9,"link":"https://a.example/","platform":"android","sdk":30}"#,
            id: "9",
            "/sdk: API level 30 is before Android 12"
        ),
        .init(
            "an unknown place to tap",
            #"{"id":10,"link":"https://a.example/","platform":"ios","tappedIn":{"kind":"dock"}}"#,
            id: "10",
            #"/tappedIn/kind: "dock" is not a place to tap"#
        ),
        .init(
            "a Safari tap without its domain",
            #"{"id":11,"link":"https://a.example/","platform":"ios","tappedIn":{"kind":"safari"}}"#,
            id: "11",
            #"/tappedIn: a tap in safari names the page's "domain""#
        ),
        .init(
            "a Safari tap as its kind alone",
            #"{"id":15,"link":"https://a.example/","platform":"ios","tappedIn":"safari"}"#,
            id: "15",
            #"/tappedIn: a tap in safari names the page's domain"#
        ),
        .init("a link that is not one", #"{"id":12,"link":"https://exa mple.com/","platform":"ios"}"#, id: "12", ""),
        .init(
            "an advanced pattern Android refuses",
            #"{"id":13,"link":"https://a.example/","platform":"android","apps":[{"package":"com.a","filters":[{"pathAdvancedPatterns":["[]"]}]}]}"#,
            id: "13",
            #"/apps/0/filters/0/pathAdvancedPatterns/0: "[]" is not a path pattern Android reads"#
        ),
        .init(
            "files that are not an object",
            #"{"id":14,"link":"https://a.example/","platform":"android","files":[]}"#,
            id: "14",
            "/files: expected an object of files by URL"
        ),
    ]
}

/// A request the prediction protocol answers with an error.
public struct PredictionErrorCase: Sendable, CustomTestStringConvertible {
    /// What is wrong.
    public let name: String
    /// The request line.
    public let request: String
    /// The id as the answer writes it.
    public let id: String
    /// How the error message begins.
    public let message: String

    init(_ name: String, _ request: String, id: String, _ message: String) {
        self.name = name
        self.request = request
        self.id = id
        self.message = message
    }

    /// How the answer line begins.
    public var answerPrefix: String {
        let escaped = message.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return #"{"id":\#(id),"error":"\#(escaped)"#
    }

    /// The case's name, as the test report shows it.
    public var testDescription: String { name }
}
