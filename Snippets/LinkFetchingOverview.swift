// The program of LinkFetching's overview, which shows it slice by slice. `swift build` builds it, and
// SwitchyardCLITests runs it: its output must be exactly the `// → ` lines, in order.

// snippet.fetcher
import Foundation
import HTTPTypes
import LinkFetching
import WebLinks

// A short-link service in memory: one redirect, then the story. Like a fetcher asked not to follow redirects, it
// answers each request itself, and it sends no body to HEAD.
struct ShortLinks: LinkFetching {
    func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        switch request.url.text {
        case "https://sho.rt/abc":
            FetchResponse(url: request.url, status: 301, headers: [.location: "https://news.example.com/story/42"])
        case "https://news.example.com/story/42":
            FetchResponse(
                url: request.url,
                status: 200,
                body: request.method == .head ? [] : Array("<h1>Story</h1>".utf8)
            )
        default:
            FetchResponse(url: request.url, status: 404)
        }
    }
}
// snippet.end

// snippet.record
// Fixtures and the download cache go to a folder of their own, removed at the end.
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("link-fetching-\(UUID().uuidString)")
let fixtures = folder.appendingPathComponent("fixtures")
let shortLink = try Link("https://sho.rt/abc")

// Unwrap a short link one hop at a time (HEAD requests that do not follow redirects), recording every exchange.
let recorder = RecordingFetcher(wrapping: ShortLinks(), directory: fixtures)
let chain = try await RedirectFollower(wrapping: recorder).follow(shortLink, deadline: .now + .seconds(5))
print(chain.links.map(\.text), chain.last.method.rawValue, chain.last.status)
// → ["https://sho.rt/abc", "https://news.example.com/story/42"] HEAD 200
print(try FileManager.default.contentsOfDirectory(atPath: fixtures.path).sorted())
// → ["HEAD-news.example.com-c7f81a9b605d8f48.json", "HEAD-sho.rt-8350bb2f499d7ef2.json"]

// Replay: the same answers from the fixtures alone, without the service; a request never recorded fails.
let replayer = ReplayingFetcher(directory: fixtures)
print(try await RedirectFollower(wrapping: replayer).follow(shortLink, deadline: .now + .seconds(5)).final)
// → https://news.example.com/story/42
let other = FetchRequest(url: try Link("https://sho.rt/other"))
do {
    _ = try await replayer.fetch(other)
} catch {
    print(error.code)
}
// → notRecorded
// snippet.end

// snippet.download
// Download once through the stack, whose HTTP cache answers the next load until the copy is a day old; the last
// good copy is also kept in the folder, for the next run.
let stack = FetchingStack(upstream: ShortLinks(), limits: nil)
let downloader = CachedDownloader(stack: stack, directory: folder.appendingPathComponent("cache"))
let first = try await downloader.load(url: "https://news.example.com/story/42")
let second = try await downloader.load(url: "https://news.example.com/story/42")
print(first.source, second.source, String(decoding: second.data, as: UTF8.self))
// → network cache <h1>Story</h1>

try FileManager.default.removeItem(at: folder)
// snippet.end
