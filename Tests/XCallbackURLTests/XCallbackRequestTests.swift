import Foundation
import SwitchyardTestSupport
import Testing
import XCallbackURL

@Suite struct XCallbackRequestTests {
    @Test func buildsEverySpecParameterInOrder() throws {
        let request = try XCallbackRequest(
            scheme: "bear", action: "create", source: "Switchyard", success: "myapp://done?x=1&y=2", error: "myapp://failed",
            cancel: "myapp://cancelled", parameters: [.init("title", "Hello & bye"), .init("text", "a+b=c #1 ü")])
        let url = try request.url()
        #expect(url == "bear://x-callback-url/create?x-source=Switchyard&x-success=myapp%3A%2F%2Fdone%3Fx%3D1%26y%3D2&x-error=myapp%3A%2F%2Ffailed&x-cancel=myapp%3A%2F%2Fcancelled&title=Hello%20%26%20bye&text=a%2Bb%3Dc%20%231%20%C3%BC")
    }

    @Test(arguments: ["Hello & bye", "a+b", "x=y=z", "#hash", "non-ASCII ü 漢字 😀", "100%", "%252F", ""])
    func roundTripsAwkwardValues(value: String) throws {
        let request = try XCallbackRequest(scheme: "app", action: "do", success: "cb://ok?q=\(value.isEmpty ? "" : "v")", parameters: [.init("v", value)])
        let url = try request.url()
        let parsed = try XCallbackRequest(parsing: url)
        #expect(parsed == request)
        #expect(try parsed.url() == url)
    }

    @Test func nestedCallbackWithItsOwnXSuccessSurvives() throws {
        let inner = try XCallbackRequest(scheme: "second", action: "show", success: "third://x-callback-url/done?a=1&b=2").url()
        let outer = try XCallbackRequest(scheme: "first", action: "open", success: inner)
        let parsed = try XCallbackRequest(parsing: try outer.url())
        #expect(parsed.success == inner)
        #expect(try XCallbackRequest(parsing: try #require(parsed.success)).success == "third://x-callback-url/done?a=1&b=2")
    }

    @Test func reservedParameterNamesAreRefused() {
        #expect(throws: XCallbackURLError.self) { try XCallbackRequest(scheme: "a", action: "b", parameters: [.init("x-custom", "1")]) }
    }

    @Test(arguments: [
        ("app:x-callback-url/do", XCallbackURLError.Code.notXCallbackURL),
        ("app://example.com/do", .notXCallbackURL),
        ("app://x-callback-url/", .badAction),
        ("app://x-callback-url/../x", .badAction),
        ("app://x-callback-url/do?x-success=app%3A%2F%2Fa&x-success=app%3A%2F%2Fb", .duplicateParameter),
        ("app://x-callback-url/do?x-success=javascript%3Aalert(1)", .forbiddenCallbackScheme),
        ("app://x-callback-url/do?x-error=data%3Atext%2Fhtml%2Cx", .forbiddenCallbackScheme),
        ("app://x-callback-url/do?x-cancel=file%3A%2F%2F%2Fetc%2Fpasswd", .forbiddenCallbackScheme),
        ("app://x-callback-url/do?x-success=https%3A%2F%2Fattacker.example%2Fsteal", .callbackNotAllowed),
        ("app://x-callback-url/do?x-success=not%20a%20url", .malformedCallback),
        ("app://x-callback-url/do?title=%zz", .badEncoding),
    ])
    func malformedURLsAreTypedErrorsNamingThePart(url: String, code: XCallbackURLError.Code) {
        do {
            _ = try XCallbackRequest(parsing: url)
            Issue.record("accepted \(url)")
        } catch {
            #expect(error.code == code, "\(error)")
            #expect(!error.part.isEmpty)
        }
    }

    @Test func hostIsCaseInsensitiveAndParametersKeepTheirShape() throws {
        let parsed = try XCallbackRequest(parsing: "app://X-Callback-URL/do?flag&empty=&eq=a=b")
        #expect(parsed.action == "do")
        #expect(parsed.parameters == [.init("flag", nil), .init("empty", ""), .init("eq", "a=b")])
        #expect(parsed[parameter: "eq"] == "a=b")
    }

    @Test func webCallbacksNeedAnAllowedHostAndLongOnesAreRefused() throws {
        let policy = CallbackPolicy(allowedWebHosts: ["example.com"])
        _ = try XCallbackRequest(parsing: "app://x-callback-url/do?x-success=https%3A%2F%2Fexample.com%2Fok", policy: policy)
        let long = "app://x-callback-url/do?x-success=" + "cb%3A%2F%2F" + String(repeating: "a", count: 100_000)
        #expect(throws: XCallbackURLError.self) { try XCallbackRequest(parsing: long) }
    }

    @Test func responsesAppendResultsAndErrors() throws {
        let request = try XCallbackRequest(scheme: "app", action: "do", success: "cb://ok?keep=1#frag", error: "cb://err", cancel: "cb://cancel")
        #expect(request.successURL(results: [.init("id", "4 2")]) == "cb://ok?keep=1&id=4%202#frag")
        let attacker = String(repeating: "<script>", count: 100)
        let errorURL = try #require(request.errorURL(code: "failed", message: attacker))
        #expect(errorURL.hasPrefix("cb://err?errorCode=failed&errorMessage=%3Cscript%3E"))
        #expect(!errorURL.contains("<"))
        #expect(errorURL.count < 1000)
        #expect(request.cancelURL() == "cb://cancel")
    }
}

@Suite struct XCallbackDispatchTests {
    @Test func knownActionRunsAndUnknownActionAnswersWithXError() async throws {
        let dispatcher = XCallbackDispatcher(scheme: "myapp")
        await dispatcher.register("add") { request in
            let a = Int(request[parameter: "a"] ?? "") ?? 0, b = Int(request[parameter: "b"] ?? "") ?? 0
            return [.init("sum", String(a + b))]
        }
        #expect(await dispatcher.handle("myapp://x-callback-url/add?a=2&b=3&x-success=caller%3A%2F%2Fdone") == .succeeded(callback: "caller://done?sum=5"))
        #expect(await dispatcher.handle("myapp://x-callback-url/nope?x-error=caller%3A%2F%2Ferr") == .failed(callback: "caller://err?errorCode=unknownAction&errorMessage=unknown%20action%20%22nope%22", code: "unknownAction"))
        if case .rejected(let error) = await dispatcher.handle("myapp://x-callback-url/add?x-success=javascript%3Ax") {
            #expect(error.code == .forbiddenCallbackScheme)
        } else {
            Issue.record("an unsafe callback was not rejected")
        }
    }

    @Test func destructiveActionsAskForConfirmationFirst() async throws {
        let answers = Answers()
        let dispatcher = XCallbackDispatcher(scheme: "myapp") { _ in await answers.next() }
        await dispatcher.register("delete", requiresConfirmation: true) { _ in [] }
        let url = "myapp://x-callback-url/delete?x-success=c%3A%2F%2Fok&x-cancel=c%3A%2F%2Fcancel"
        await answers.set([false, true])
        #expect(await dispatcher.handle(url) == .cancelled(callback: "c://cancel"))
        #expect(await dispatcher.handle(url) == .succeeded(callback: "c://ok"))
    }

    @Test func failingHandlerAnswersWithItsError() async {
        let dispatcher = XCallbackDispatcher(scheme: "myapp")
        await dispatcher.register("post") { _ throws(XCallbackHandlerError) in throw XCallbackHandlerError(code: "offline", message: "no network") }
        #expect(await dispatcher.handle("myapp://x-callback-url/post?x-error=c%3A%2F%2Ferr") == .failed(callback: "c://err?errorCode=offline&errorMessage=no%20network", code: "offline"))
    }

    @Test func clientCorrelatesAnswersWithRequests() async throws {
        let client = XCallbackClient(callbackBase: "me://x-callback-url/answer")
        let (url, id) = try await client.prepare(scheme: "other", action: "pick", parameters: [.init("kind", "photo")])
        let request = try XCallbackRequest(parsing: url)
        let dispatcher = XCallbackDispatcher(scheme: "other")
        await dispatcher.register("pick") { _ in [.init("photo", "IMG 1")] }
        async let answer = client.answer(for: id)
        guard case .succeeded(let callback?) = await dispatcher.handle(try request.url()) else {
            Issue.record("no success callback")
            return
        }
        #expect(await client.receive(callback))
        #expect(await answer == .success([.init("photo", "IMG 1")]))
    }

    actor Answers {
        var queue: [Bool] = []
        func set(_ values: [Bool]) { queue = values }
        func next() -> Bool { queue.isEmpty ? false : queue.removeFirst() }
    }
}
