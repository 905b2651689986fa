import Foundation
import Testing
import XCallbackURL

/// Correlating outgoing requests with the callbacks that answer them.
@Suite struct XCallbackClientTests {
    @Test func successAnswersTheCallerWaitingForThatRequest() async throws {
        let client = XCallbackClient(callbackBase: "me://x-callback-url/answer")
        let (url, id) = try await client.prepare(
            scheme: "other",
            action: "pick",
            source: "Me",
            parameters: [.init("kind", "photo")]
        )
        let request = try XCallbackRequest(parsing: url)
        #expect(request.source == "Me" && request[parameter: "kind"] == "photo")
        #expect(request.success?.hasPrefix("me://x-callback-url/answer?request-id=\(id)&outcome=success") == true)
        let dispatcher = XCallbackDispatcher(scheme: "other")
        await dispatcher.register("pick") { _ in [.init("photo", "IMG 1"), .init("outcome", "shadow")] }
        async let answer = client.answer(for: id)
        let callback = try #require(await dispatcher.handle(url).callback)
        #expect(await client.receive(callback))
        #expect(await answer == .success([.init("photo", "IMG 1"), .init("outcome", "shadow")]))
        #expect(await client.pendingCount == 0)
        #expect(await !client.receive(callback), "an answer is delivered once")
    }

    @Test func errorAndCancelCallbacksAnswerToo() async throws {
        let client = XCallbackClient(callbackBase: "me://x-callback-url/answer")
        let failing = try await client.prepare(scheme: "other", action: "nope")
        let cancelled = try await client.prepare(scheme: "other", action: "wipe")
        let dispatcher = XCallbackDispatcher(scheme: "other")
        await dispatcher.register("wipe", requiresConfirmation: true) { _ in [] }
        // Answers that arrive before anyone waits are kept for the waiter.
        #expect(await client.receive(try #require(await dispatcher.handle(failing.url).callback)))
        #expect(await client.receive(try #require(await dispatcher.handle(cancelled.url).callback)))
        #expect(
            await client.answer(for: failing.id)
                == .error(code: "unknownAction", message: "the action \"nope\" is not supported")
        )
        #expect(await client.answer(for: cancelled.id) == .cancel)
    }

    @Test(arguments: [
        "me://x-callback-url/answer?request-id=forged&outcome=success",
        "me://x-callback-url/answerX?request-id=ID&outcome=success",
        "me://x-callback-url/answer?request-id=ID&outcome=maybe",
        "me://x-callback-url/answer?outcome=success",
        "evil://x-callback-url/answer?request-id=ID&outcome=success",
        "me://x-callback-url/answer?request-id=ID&outcome=success&bad=%zz",
    ])
    func callbacksThatAnswerNoPendingRequestAreIgnored(template: String) async throws {
        let client = XCallbackClient(callbackBase: "me://x-callback-url/answer")
        let (_, id) = try await client.prepare(scheme: "other", action: "pick")
        #expect(await !client.receive(template.replacingOccurrences(of: "ID", with: id)))
        #expect(await client.pendingCount == 1)
    }

    @Test func cancellingTheWaitingTaskAnswersCancelAndForgetsTheRequest() async throws {
        let client = XCallbackClient(callbackBase: "me://x-callback-url/answer")
        let (_, id) = try await client.prepare(scheme: "other", action: "pick")
        let waiter = Task { await client.answer(for: id) }
        while !(await client.isWaiting(for: id)) { await Task.yield() }
        waiter.cancel()
        #expect(await waiter.value == .cancel)
        #expect(await !client.receive("me://x-callback-url/answer?request-id=\(id)&outcome=success"))
    }

    @Test func abandoningARequestWakesItsWaiter() async throws {
        let client = XCallbackClient(callbackBase: "me://x-callback-url/answer")
        let (_, id) = try await client.prepare(scheme: "other", action: "pick")
        async let answer = client.answer(for: id)
        while !(await client.isWaiting(for: id)) { await Task.yield() }
        await client.abandon(id)
        #expect(await answer == .cancel)
        #expect(await client.answer(for: "never-prepared") == .cancel)
    }

    @Test func unsafeCallbackBasesAreRefusedWhenPreparing() async {
        let client = XCallbackClient(callbackBase: "javascript:alert(1)//")
        await #expect(throws: XCallbackURLError.self) { try await client.prepare(scheme: "other", action: "pick") }
    }
}
