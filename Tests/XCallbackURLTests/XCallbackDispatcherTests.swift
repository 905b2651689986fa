import Foundation
import Testing
import XCallbackURL

/// Routing received requests to handlers: known and unknown actions, failures, confirmation, typed parameters.
@Suite struct XCallbackDispatcherTests {
    @Test func knownActionRunsAndAppendsItsResults() async {
        let dispatcher = XCallbackDispatcher(scheme: "myapp")
        await dispatcher.register("add") { request in
            let a = Int(request[parameter: "a"] ?? "") ?? 0
            let b = Int(request[parameter: "b"] ?? "") ?? 0
            return [.init("sum", String(a + b))]
        }
        let outcome = await dispatcher.handle(
            "MyApp://x-callback-url/add?a=2&b=3&x-success=caller%3A%2F%2Fdone%3Fk%3D1"
        )
        #expect(outcome == .succeeded(callback: "caller://done?k=1&sum=5"))
        #expect(outcome.callback == "caller://done?k=1&sum=5")
        #expect(await dispatcher.actions == ["add"])
    }

    @Test func unknownActionAnswersWithXError() async {
        let dispatcher = XCallbackDispatcher(scheme: "myapp")
        #expect(
            await dispatcher.handle(
                "myapp://x-callback-url/nope?x-error=caller%3A%2F%2Ferr&x-success=caller%3A%2F%2Fok"
            )
                == .failed(
                    callback:
                        "caller://err?errorCode=unknownAction&errorMessage=the%20action%20%22nope%22%20is%20not%20supported",
                    code: "unknownAction"
                )
        )
        #expect(await dispatcher.handle("myapp://x-callback-url/nope") == .failed(callback: nil, code: "unknownAction"))
    }

    @Test func failingHandlersAnswerWithTheirErrorOrAGenericOne() async {
        struct Offline: Error, CustomStringConvertible { var description: String { "the network is down" } }
        let dispatcher = XCallbackDispatcher(scheme: "myapp")
        await dispatcher.register("post") { _ in throw XCallbackHandlerError(code: "offline", message: "no network") }
        await dispatcher.register("sync") { _ in throw Offline() }
        #expect(
            await dispatcher.handle("myapp://x-callback-url/post?x-error=c%3A%2F%2Ferr")
                == .failed(callback: "c://err?errorCode=offline&errorMessage=no%20network", code: "offline")
        )
        #expect(
            await dispatcher.handle("myapp://x-callback-url/sync?x-error=c%3A%2F%2Ferr")
                == .failed(
                    callback: "c://err?errorCode=handlerFailed&errorMessage=the%20network%20is%20down",
                    code: "handlerFailed"
                )
        )
    }

    @Test(arguments: [
        ("myapp://x-callback-url/add?x-success=javascript%3Ax", XCallbackURLError.Code.forbiddenCallbackScheme),
        ("myapp://x-callback-url/add?x-success=https%3A%2F%2Fevil.example%2F", .callbackNotAllowed),
        ("other://x-callback-url/add", .badScheme),
        ("myapp://elsewhere/add", .notXCallbackURL),
        ("myapp://x-callback-url/../add", .badAction),
    ])
    func unsafeOrForeignURLsAreRejectedBeforeAnyHandlerRuns(url: String, code: XCallbackURLError.Code) async {
        let calls = Counter()
        let dispatcher = XCallbackDispatcher(scheme: "myapp")
        await dispatcher.register("add") { _ in
            await calls.increment()
            return []
        }
        guard case .rejected(let error) = await dispatcher.handle(url) else {
            Issue.record("\(url) was not rejected")
            return
        }
        #expect(error.code == code)
        #expect(await calls.value == 0)
        #expect(await dispatcher.handle(url).callback == nil)
    }

    @Test func actionsNeedingConfirmationAskFirstAndCancelOnRefusal() async {
        let answers = Answers([false, true])
        let dispatcher = XCallbackDispatcher(scheme: "myapp") { request in await answers.next(for: request.action) }
        let deleted = Counter()
        await dispatcher.register("delete", requiresConfirmation: true) { _ in
            await deleted.increment()
            return []
        }
        await dispatcher.register("show") { _ in [] }
        let url = "myapp://x-callback-url/delete?x-success=c%3A%2F%2Fok&x-cancel=c%3A%2F%2Fcancel"
        #expect(await dispatcher.handle(url) == .cancelled(callback: "c://cancel"))
        #expect(await deleted.value == 0)
        #expect(await dispatcher.handle(url) == .succeeded(callback: "c://ok"))
        #expect(await deleted.value == 1)
        #expect(
            await dispatcher.handle("myapp://x-callback-url/show?x-success=c%3A%2F%2Fok")
                == .succeeded(callback: "c://ok")
        )
        #expect(await answers.asked == ["delete", "delete"])
    }

    @Test func withoutAConfirmationHookConfirmationActionsNeverRun() async {
        let dispatcher = XCallbackDispatcher(scheme: "myapp")
        await dispatcher.register("wipe", requiresConfirmation: true) { _ in [.init("wiped", "yes")] }
        #expect(
            await dispatcher.handle("myapp://x-callback-url/wipe?x-cancel=c%3A%2F%2Fno")
                == .cancelled(callback: "c://no")
        )
    }

    struct NewNote: Decodable, Sendable {
        enum Kind: String, Decodable { case plain, markdown }
        var title: String
        var count: Int
        var pinned: Bool
        var kind: Kind?
        var link: URL?
        var tags: [String]
    }

    @Test func typedHandlersReceiveDecodedParameters() async throws {
        let dispatcher = XCallbackDispatcher(scheme: "notes")
        await dispatcher.register("create", parameters: NewNote.self) { note, _ in
            [
                .init(
                    "summary",
                    "\(note.title)|\(note.count)|\(note.pinned)|\(note.kind?.rawValue ?? "-")|\(note.link?.host ?? "-")|\(note.tags.joined(separator: ","))"
                )
            ]
        }
        let ok = await dispatcher.handle(
            "notes://x-callback-url/create?title=Hi%20%26%20bye&count=3&pinned&kind=markdown&link=https%3A%2F%2Fa.example%2Fx&tags=a&tags=b&x-success=c%3A%2F%2Fok"
        )
        #expect(ok == .succeeded(callback: "c://ok?summary=Hi%20%26%20bye%7C3%7Ctrue%7Cmarkdown%7Ca.example%7Ca%2Cb"))
        let minimal = await dispatcher.handle(
            "notes://x-callback-url/create?title=T&count=0&pinned=no&tags=&x-success=c%3A%2F%2Fok"
        )
        #expect(minimal == .succeeded(callback: "c://ok?summary=T%7C0%7Cfalse%7C-%7C-%7C"))
    }

    @Test(arguments: [
        ("pinned=1&tags=a", "the parameter \"title\" is missing"),
        ("title=T&count=many&pinned=1&tags=a", "the parameter \"count\" is \"many\", not a whole number"),
        ("title=T&count&pinned=1&tags=a", "the parameter \"count\" has no value, but a whole number is needed"),
        ("title=T&count=1&pinned=maybe&tags=a", "the parameter \"pinned\" is \"maybe\", not true or false"),
        (
            "title=T&count=1&pinned=1&tags=a&link=not%20a%20url",
            "the parameter \"link\" is \"not a url\", not an absolute URL"
        ),
    ])
    func typedParametersThatDoNotFitAnswerWithInvalidParameter(query: String, message: String) async throws {
        let dispatcher = XCallbackDispatcher(scheme: "notes")
        await dispatcher.register("create", parameters: NewNote.self) { _, _ in [] }
        let outcome = await dispatcher.handle("notes://x-callback-url/create?\(query)&x-error=c%3A%2F%2Ferr")
        guard case .failed(let callback?, let code) = outcome else {
            Issue.record("\(query) got \(outcome)")
            return
        }
        #expect(code == "invalidParameter")
        let answer = try XCallbackRequest(parsing: "c://x-callback-url/e?" + callback.dropFirst("c://err?".count))
        #expect(answer[parameter: "errorMessage"] == message)
    }

    actor Counter {
        var value = 0
        func increment() { value += 1 }
    }

    actor Answers {
        var queue: [Bool]
        var asked: [String] = []
        init(_ queue: [Bool]) { self.queue = queue }
        func next(for action: String) -> Bool {
            asked.append(action)
            return queue.isEmpty ? false : queue.removeFirst()
        }
    }
}
