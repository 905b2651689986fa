// The program of XCallbackURL's overview, which shows it slice by slice. `swift build` builds it, and
// SwitchyardCLITests runs it: its output must be exactly the `// → ` lines, in order.

// snippet.request
import XCallbackURL

// The caller: ask Bear to create a note and come back to us.
let create = try XCallbackRequest(
    scheme: "bear",
    action: "create",
    source: "Switchyard",
    success: "myapp://done?x=1&y=2",
    error: "myapp://failed",
    parameters: [.init("title", "Hello & bye"), .init("tags", "a+b")]
)
let url = try create.url()
print(url)
// → bear://x-callback-url/create?x-source=Switchyard&x-success=myapp%3A%2F%2Fdone%3Fx%3D1%26y%3D2&x-error=myapp%3A%2F%2Ffailed&title=Hello%20%26%20bye&tags=a%2Bb
// snippet.end

// snippet.dispatch
// The receiving app: typed parameters, a confirmation hook for the destructive action.
struct NewNote: Decodable, Sendable {
    var title: String
    var tags: String?
}
let dispatcher = XCallbackDispatcher(scheme: "bear") { request in
    request.action != "trash"  // a real app asks the user here
}
await dispatcher.register("create", parameters: NewNote.self) { note, _ in
    [.init("identifier", "N-1"), .init("title", note.title)]
}
await dispatcher.register("trash", requiresConfirmation: true) { _ in [] }

let outcome = await dispatcher.handle(url)
print(outcome.callback ?? "nothing to open")
// → myapp://done?x=1&y=2&identifier=N-1&title=Hello%20%26%20bye

// The confirmation hook declines "trash": the handler does not run, and the answer goes to x-cancel.
print(await dispatcher.handle("bear://x-callback-url/trash?id=N-1&x-cancel=myapp%3A%2F%2Fkept"))
// → cancelled(callback: Optional("myapp://kept"))

// Unsafe callbacks never reach a handler.
print(await dispatcher.handle("bear://x-callback-url/create?title=x&x-success=javascript%3Aalert(1)"))
// → rejected(x-success: callbacks with the scheme "javascript:" are refused because they could run code or read local data [E_FORBIDDEN_CALLBACK_SCHEME])
// snippet.end
