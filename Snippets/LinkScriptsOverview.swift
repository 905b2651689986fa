// The program of LinkScripts' overview, which shows it slice by slice. `swift build` builds it, and
// SwitchyardCLITests runs it: its output must be exactly the `// → ` lines, in order.

// snippet.run
import LinkScripts

let runner = ScriptRunner(configuration: ScriptConfiguration(timeLimit: .seconds(5)))

let script = try runner.compile(
    """
    function process(url, completionHandler) {
        var note = jsonRequest("https://api.notes.example.com/lookup?url=" + encodeURIComponent(url));
        completionHandler(note ? "notes-example://note/" + note.id : null);
    }
    """,
    kind: .script2,
    name: "/actions/0/formats/0/script2"
)

// The network scripts get: here a canned answer, in Switchyard a policy-checked, cached fetcher. It is awaited off
// the worker threads: a script stops at a request whose answer is not at hand, and runs again once the network has
// it (`answer(to:)`; a network with no record of its own keeps its answers in a `ScriptAnswers`). This script's
// first request is certain from its source, so that answer is fetched before it runs: it runs once.
struct NotesAPI: ScriptNetwork {
    let answers = ScriptAnswers()

    func get(_ url: String, deadline: ContinuousClock.Instant) async throws(ScriptNetworkError) -> String {
        try await answers.keep(url) { #"{"id": "abc"}"# }
    }

    func answer(to url: String) -> Result<String, ScriptNetworkError>? {
        answers.answer(to: url)
    }
}
let result = await runner.run(script, input: "https://notes.example.com/n/abc", network: NotesAPI())
print(result.output, result.usedNetwork, result.runs)
// → success(Optional("notes-example://note/abc")) true 1
// snippet.end

// snippet.limits
// Offline, the same script reports that it needed the network.
let offline = await runner.run(script, input: "https://notes.example.com/n/abc", network: nil)
print(offline.output)
// → failure(/actions/0/formats/0/script2: the script needs the network, which this run does not allow [E_NEEDS_NETWORK])

// A script that never ends is stopped at its deadline, here 200 ms instead of the runner's 5 s; a busy machine may
// take a little longer to stop it, so its duration is not printed.
let loop = try runner.compile("function process(url, done) { for (;;) {} }", kind: .script2, name: "/loop")
let stopped = await runner.run(loop, input: "https://example.com/", network: nil, timeLimit: .milliseconds(200))
print(stopped.output)
// → failure(/loop: the script ran past its time limit and was stopped [E_SCRIPT_TIMEOUT])

// A script that does not parse is refused when it is compiled.
do {
    _ = try runner.compile("function process(url, done) { done(", kind: .script2, name: "/broken")
} catch {
    print(error.code, error.line ?? 0)
}
// → syntax 1
// snippet.end
