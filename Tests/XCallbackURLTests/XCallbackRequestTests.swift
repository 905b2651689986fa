import Foundation
import Testing
import XCallbackURL

/// Building and parsing: every spec parameter, strict encoding, round trips, typed errors naming the part.
@Suite struct XCallbackRequestTests {
    @Test func buildsEverySpecParameterThenActionParametersInOrder() throws {
        let request = try XCallbackRequest(
            scheme: "bear",
            action: "create",
            source: "Switchyard",
            success: "myapp://done?x=1&y=2",
            error: "myapp://failed",
            cancel: "myapp://cancelled",
            parameters: [.init("title", "Hello & bye"), .init("text", "a+b=c #1 ü"), .init("pin", nil)]
        )
        #expect(
            try request.url()
                == "bear://x-callback-url/create?x-source=Switchyard&x-success=myapp%3A%2F%2Fdone%3Fx%3D1%26y%3D2"
                + "&x-error=myapp%3A%2F%2Ffailed&x-cancel=myapp%3A%2F%2Fcancelled&title=Hello%20%26%20bye"
                + "&text=a%2Bb%3Dc%20%231%20%C3%BC&pin"
        )
    }

    @Test func buildsABareRequestWithoutQuery() throws {
        #expect(
            try XCallbackRequest(scheme: "tumblr", action: "dashboard").url() == "tumblr://x-callback-url/dashboard"
        )
    }

    @Test(arguments: [
        ("x-source", "My App"), ("x-success", "cb://ok?a=1&b=2"), ("x-error", "cb://err#top"),
        ("x-cancel", "cb://cancel"),
    ])
    func parsesEachSpecParameter(name: String, value: String) throws {
        let url =
            "app://x-callback-url/do?\(name)=\(value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")&n=1"
        let parsed = try XCallbackRequest(parsing: url)
        let fields = [
            "x-source": parsed.source, "x-success": parsed.success, "x-error": parsed.error, "x-cancel": parsed.cancel,
        ]
        #expect(fields[name] == value)
        #expect(fields.values.compactMap { $0 }.count == 1)
        #expect(parsed.parameters == [.init("n", "1")])
    }

    @Test(arguments: [
        "Hello & bye", "a+b", "1 + 1 = 2", "x=y=z", "#hash", "?q", "50% off", "%252F", "path/with/slashes", "",
        "non-ASCII ü é 漢字 😀", "line\nbreak\ttab", "'\"<>\\`{}|^[]", "\u{FEFF}starts with a byte-order mark",
    ])
    func awkwardValuesRoundTrip(value: String) throws {
        let request = try XCallbackRequest(
            scheme: "app",
            action: "do",
            source: value,
            success: "cb://ok?keep=\(value.isEmpty ? "1" : "2")",
            parameters: [.init("v", value), .init(value.isEmpty ? "e" : value, "name")]
        )
        let url = try request.url()
        #expect(!url.contains(" ") && !url.contains("+") && !url.contains("#"))
        let parsed = try XCallbackRequest(parsing: url)
        #expect(parsed == request)
        #expect(try parsed.url() == url)
    }

    @Test func everyCharacterButTheUnreservedOnesIsEscapedWithUpperCaseHex() throws {
        let value = ":/?#[]@!$&'()*+,;=% ~-._AZaz09\u{7F}é"
        let url = try XCallbackRequest(scheme: "app", action: "do", parameters: [.init("v", value)]).url()
        let reserved = "%3A%2F%3F%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D%25%20"
        #expect(url == "app://x-callback-url/do?v=" + reserved + "~-._AZaz09%7F%C3%A9")
    }

    @Test func plusIsEncodedSoFormDecodingReceiversKeepIt() throws {
        let url = try XCallbackRequest(scheme: "app", action: "do", parameters: [.init("q", "c++ a+b")]).url()
        #expect(url.hasSuffix("q=c%2B%2B%20a%2Bb"))
        // A raw '+' from a sender is kept as a plus, not guessed to be a space.
        #expect(try XCallbackRequest(parsing: "app://x-callback-url/do?q=a+b")[parameter: "q"] == "a+b")
    }

    @Test func nestedCallbackWithItsOwnQuerySurvivesTwoLevels() throws {
        let third = "third://x-callback-url/done?a=1&b=two%20words"
        let second = try XCallbackRequest(scheme: "second", action: "show", success: third).url()
        let first = try XCallbackRequest(scheme: "first", action: "open", success: second).url()
        let parsed = try XCallbackRequest(parsing: first)
        #expect(parsed.success == second)
        let inner = try XCallbackRequest(parsing: try #require(parsed.success))
        #expect(inner.success == third)
        #expect(try parsed.url() == first)
    }

    @Test func actionPathsAndNamesRoundTrip() throws {
        let request = try XCallbackRequest(scheme: "app", action: "notes/add new", parameters: [.init("a", "1")])
        let url = try request.url()
        #expect(url == "app://x-callback-url/notes/add%20new?a=1")
        #expect(try XCallbackRequest(parsing: url) == request)
    }

    @Test func repeatedActionParametersKeepTheirOrder() throws {
        let parsed = try XCallbackRequest(parsing: "app://x-callback-url/tag?t=b&x-source=S&t=a&u=1&t=c")
        #expect(parsed.parameters.map(\.name) == ["t", "t", "u", "t"])
        #expect(parsed.parameters.compactMap(\.value) == ["b", "a", "1", "c"])
        #expect(parsed[parameter: "t"] == "b")
    }

    @Test func valuelessAndEmptyParametersAreDistinct() throws {
        let parsed = try XCallbackRequest(parsing: "app://X-Callback-URL/do?flag&empty=&eq=a=b")
        #expect(parsed.action == "do")
        #expect(parsed.parameters == [.init("flag", nil), .init("empty", ""), .init("eq", "a=b")])
        #expect(try parsed.url() == "app://x-callback-url/do?flag&empty=&eq=a%3Db")
    }

    @Test func fragmentsAndUnknownReservedParametersAreNotPartOfTheRequest() throws {
        let parsed = try XCallbackRequest(parsing: "app://x-callback-url/do?a=1&x-future=2#frag")
        #expect(parsed.parameters == [.init("a", "1")])
        #expect(parsed.source == nil && parsed.success == nil)
    }

    @Test(arguments: [
        ("x-custom", XCallbackURLError.Code.reservedParameter), ("X-Success", .reservedParameter), ("", .badParameter),
    ])
    func buildingRefusesReservedAndEmptyNames(name: String, code: XCallbackURLError.Code) {
        #expect(throws: XCallbackURLError.self) {
            try XCallbackRequest(scheme: "a", action: "b", parameters: [.init(name, "1")])
        }
        do {
            _ = try XCallbackRequest(scheme: "a", action: "b", parameters: [.init(name, "1")])
        } catch {
            #expect(error.code == code)
        }
    }

    @Test(arguments: [
        ("1app", "do", XCallbackURLError.Code.badScheme), ("my app", "do", .badScheme), ("", "do", .badScheme),
        ("app", "", .badAction), ("app", "../etc", .badAction), ("app", "a//b", .badAction),
        ("app", "a/./b", .badAction),
        ("app", "do\n", .badAction),
    ])
    func buildingRefusesBadSchemesAndActions(scheme: String, action: String, code: XCallbackURLError.Code) {
        do {
            _ = try XCallbackRequest(scheme: scheme, action: action)
            Issue.record("accepted \(scheme)://x-callback-url/\(action)")
        } catch {
            #expect(error.code == code)
        }
    }

    @Test(arguments: [
        ("app:x-callback-url/do", XCallbackURLError.Code.notXCallbackURL, "host"),
        ("app://example.com/do", .notXCallbackURL, "host"),
        ("app://x-callback-url.evil/do", .notXCallbackURL, "host"),
        ("://x-callback-url/do", .notXCallbackURL, "scheme"),
        ("x-callback-url/do", .notXCallbackURL, "scheme"),
        ("app://x-callback-url", .badAction, "action"),
        ("app://x-callback-url/", .badAction, "action"),
        ("app://x-callback-url/?a=1", .badAction, "action"),
        ("app://x-callback-url/../x", .badAction, "action"),
        ("app://x-callback-url/%2E%2E/x", .badAction, "action"),
        ("app://x-callback-url/a%zz", .badEncoding, "action"),
        ("app://x-callback-url/do?title=%zz", .badEncoding, "title"),
        ("app://x-callback-url/do?title=%C3", .badEncoding, "title"),
        ("app://x-callback-url/do?title=%A9", .badEncoding, "title"),
        ("app://x-callback-url/do?%zz=1", .badEncoding, "query"),
        ("app://x-callback-url/do?=1", .badParameter, "query"),
        ("app://x-callback-url/do?a=1\nX-Injected: yes", .badEncoding, "url"),
        ("app://x-callback-url/do?x-custom-flag=1&x-source=a&x-source=b", .duplicateParameter, "x-source"),
        ("app://x-callback-url/do?x-cancel=app%3A%2F%2Fa&X-Cancel=app%3A%2F%2Fb", .duplicateParameter, "x-cancel"),
        ("app://x-callback-url/do?x-success=javascript%3Aalert(1)", .forbiddenCallbackScheme, "x-success"),
        ("app://x-callback-url/do?x-error=data%3Atext%2Fhtml%2Cx", .forbiddenCallbackScheme, "x-error"),
        ("app://x-callback-url/do?x-cancel=file%3A%2F%2F%2Fetc%2Fpasswd", .forbiddenCallbackScheme, "x-cancel"),
        ("app://x-callback-url/do?x-success=https%3A%2F%2Fattacker.example%2Fsteal", .callbackNotAllowed, "x-success"),
        ("app://x-callback-url/do?x-success=not%20a%20url", .malformedCallback, "x-success"),
        ("app://x-callback-url/do?x-success", .malformedCallback, "x-success"),
    ])
    func malformedURLsAreTypedErrorsNamingThePart(url: String, code: XCallbackURLError.Code, part: String) {
        do {
            _ = try XCallbackRequest(parsing: url)
            Issue.record("accepted \(url)")
        } catch {
            #expect(error.code == code, "\(error)")
            #expect(error.part == part, "\(error)")
            #expect(error.description.hasPrefix("\(part): ") && error.description.hasSuffix("[\(code.rawValue)]"))
        }
    }

    @Test func jsonFormKeepsParameterOrderAndNullValues() throws {
        let request = try XCallbackRequest(parsing: "bear://x-callback-url/create?x-success=my%3A%2F%2Fok&b=2&a&c=")
        let data = try JSONEncoder().encode(request)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["scheme"] as? String == "bear" && object["action"] as? String == "create")
        #expect(object["success"] as? String == "my://ok" && object["error"] == nil)
        let parameters = try #require(object["parameters"] as? [[String: Any]])
        #expect(parameters.compactMap { $0["name"] as? String } == ["b", "a", "c"])
        #expect(parameters[1]["value"] is NSNull && parameters[2]["value"] as? String == "")
        let decoded = try JSONDecoder().decode(
            [XCallbackRequest.Parameter].self,
            from: JSONSerialization.data(withJSONObject: parameters)
        )
        #expect(decoded == request.parameters)
    }
}
