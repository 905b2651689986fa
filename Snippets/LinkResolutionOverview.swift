// The program of LinkResolution's overview, which shows it slice by slice. `swift build` builds it, and
// SwitchyardCLITests runs it: its output must be exactly the `// → ` lines, in order.

// snippet.stage
import LinkResolution
import WebLinks

// A cleaning stage of your own, written against the light API alone: it drops a `ref` parameter.
struct DropRef: LinkCleaningStage {
    var identity: String { "drop-ref 1" }

    func clean(_ link: Link, _ context: CleaningContext) -> CleaningOutcome {
        let parts = link.text.split(separator: "?", maxSplits: 1)
        guard parts.count == 2, parts[1].contains("ref=") else { return .unchanged }
        let kept = parts[1].split(separator: "&").filter { !$0.hasPrefix("ref=") }.joined(separator: "&")
        let base = parts[0]
        guard let cleaned = try? Link(kept.isEmpty ? String(base) : "\(base)?\(kept)") else { return .unchanged }
        return CleaningOutcome(link: cleaned)
    }
}

let context = CleaningContext(request: ResolveRequest(), timeLimit: .milliseconds(250), skipsHost: { _ in false })
print(DropRef().clean(try Link("https://example.com/a?ref=mail&id=7"), context).link?.text ?? "unchanged")
// → https://example.com/a?id=7
// snippet.end

// snippet.request
// One request value for every front end: fields as the query string spells them, checked and named when wrong.
let request = try ResolveRequest(fields: [.platform: "pad", .timeout: "2", .followPages: "true"])
print(request.platform?.rawValue ?? "any", request.timeLimit, request.followsPages == true)
// → pad 2.0 seconds true
do {
    _ = try ResolveRequest(fields: [.timeout: "forever"])
} catch {
    print(error.code)
}
// → E_TIMEOUT
// snippet.end

// snippet.cacheability
// How long an answer may be kept: the shortest of what its parts allow.
let answer = Cacheability.unlimited.combined(with: .upTo(.seconds(60))).combined(with: .upTo(.seconds(5)))
print(answer.maximumAge ?? .zero, answer.allowsStoring)
// → 5.0 seconds true
// snippet.end
