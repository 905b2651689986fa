// The program of LinkFetchingHTTP's overview, which shows it slice by slice. `swift build` builds it, and
// SwitchyardCLITests runs it: its output must be exactly the `// → ` lines, in order. Every request here is refused
// before a connection is made, so it needs no network.

// snippet.refuse
import LinkFetching
import LinkFetchingHTTP
import WebLinks

let fetcher = LiveFetcher()  // NetworkPolicy.standard
for url in ["http://example.com:8080/", "http://2130706433/admin", "http://[::ffff:127.0.0.1]/admin"] {
    // The request holds a parsed Link: the host is already the address it names, however it was written.
    let request = FetchRequest(url: try Link(url))
    do {
        _ = try await fetcher.fetch(request)
    } catch {
        print(error.code, "-", error)
    }
}
// → forbiddenPort - The port 8080 of 'http://example.com:8080/' is refused: only ports 80 and 443 are fetched unless private addresses are allowed (--allow-private-addresses).
// → blockedAddress - The host '127.0.0.1' of 'http://127.0.0.1/admin' resolves to 127.0.0.1, a loopback 127.0.0.0/8 address, which is refused unless private addresses are allowed (--allow-private-addresses).
// → blockedAddress - The host '::ffff:7f00:1' of 'http://[::ffff:7f00:1]/admin' resolves to ::ffff:127.0.0.1, a loopback 127.0.0.0/8 (embedded in ::ffff:127.0.0.1) address, which is refused unless private addresses are allowed (--allow-private-addresses).

// Other schemes never get that far: only web links parse.
do {
    _ = try Link("file:///etc/passwd")
} catch {
    print(error.code, "-", error)
}
// → notWebLink - only web links are resolved: the scheme "file" is not http or https [E_NOT_WEB_LINK]
// snippet.end

// snippet.follower
// Everything built on LinkFetching takes the fetcher as it is, its policy included: here a short link that points
// at a cloud metadata address is refused on its first hop.
let follower = RedirectFollower(wrapping: fetcher)
let metadata = try Link("http://169.254.169.254/latest/meta-data/")
do {
    _ = try await follower.follow(metadata, deadline: .now + .seconds(5))
} catch {
    print(error.code, "-", error)
}
// → blockedAddress - The host '169.254.169.254' of 'http://169.254.169.254/latest/meta-data/' resolves to 169.254.169.254, a link-local 169.254.0.0/16 (cloud metadata lives at 169.254.169.254) address, which is refused unless private addresses are allowed (--allow-private-addresses).
// snippet.end
