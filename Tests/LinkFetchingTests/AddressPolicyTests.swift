import Foundation
import LinkFetching
import LinkFetchingHTTP
import SwitchyardTestSupport
import Testing
import WebLinks

/// The address checks against a real loopback server: refused by default, allowed when asked.
@Suite struct AddressPolicyTests {
    @Test func refusesLoopbackByDefaultAndAllowsItWhenAsked() async throws {
        let server = try await Server.start { _ in .text("secret") }
        let strict = LiveFetcher()
        let defaultError = await fetchError { () async throws(FetchError) in
            try await strict.fetch(FetchRequest(url: Link(test: server.url("/"))))
        }
        // Only the address check (not the port rule) stands between the request and the server here.
        let portOpen = LiveFetcher(policy: NetworkPolicy(allowedPorts: [server.port]))
        let addressError = await fetchError { () async throws(FetchError) in
            try await portOpen.fetch(FetchRequest(url: Link(test: server.url("/"))))
        }
        let allowed = try await LiveFetcher(policy: .loopback).fetch(FetchRequest(url: Link(test: server.url("/"))))
        await server.stop()
        #expect(defaultError != nil)
        #expect(addressError?.code == .blockedAddress)
        #expect(
            addressError?.message
                == "The host '127.0.0.1' of '\(server.url("/"))' resolves to 127.0.0.1, a loopback 127.0.0.0/8 address, which is refused unless private addresses are allowed (--allow-private-addresses)."
        )
        #expect(allowed.text == "secret")
        #expect(server.requestCount == 1)
    }

    @Test(arguments: ["2130706433", "0x7f.0.0.1", "0177.0.0.1", "127.1", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]"])
    func refusesAlternateLoopbackSpellings(_ host: String) async throws {
        let server = try await Server.start { _ in .text("secret") }
        let url = "http://\(host):\(server.port)/"
        let defaultError = await fetchError { () async throws(FetchError) in
            try await LiveFetcher().fetch(FetchRequest(url: Link(test: url)))
        }
        let addressError = await fetchError { () async throws(FetchError) in
            try await LiveFetcher(policy: NetworkPolicy(allowedPorts: [server.port])).fetch(
                FetchRequest(url: Link(test: url))
            )
        }
        await server.stop()
        #expect(defaultError != nil)
        #expect(addressError?.code == .blockedAddress, "\(addressError?.message ?? "no error")")
        #expect(server.requestCount == 0)
    }

    @Test func reachesTheServerThroughLenientSpellingsWhenPrivateIsAllowed() async throws {
        let server = try await Server.start { request in .text(request.header("Host") ?? "") }
        let response = try await LiveFetcher(policy: .loopback).fetch(
            FetchRequest(url: Link(test: "http://2130706433:\(server.port)/"))
        )
        await server.stop()
        // One canonical link: the number names 127.0.0.1, and that is what is matched, connected to and sent as Host.
        #expect(response.text == "127.0.0.1:\(server.port)")
        #expect(response.url.text == "http://127.0.0.1:\(server.port)/")
    }

    @Test(arguments: ["http://internal.example/admin", "http://127.0.0.2:PORT/admin", "http://[::1]:PORT/admin"])
    func redirectsArePolicyCheckedOnEveryHop(_ target: String) async throws {
        let server = try await Server.start { request in
            request.path == "/start"
                ? .redirect(
                    to: target.replacingOccurrences(
                        of: "PORT",
                        with: request.header("Host")?
                            .split(separator: ":").last.map(String.init) ?? ""
                    )
                ) : .text("reached \(request.path)")
        }
        // Only the first hop's address (the test server) is exempt; the redirect target must be judged anew.
        let policy = NetworkPolicy(
            allowedAddresses: [.v4(127, 0, 0, 1)],
            allowedPorts: [80, server.port],
            resolver: .table(["internal.example": [.v4(10, 0, 0, 5)]])
        )
        let error = await fetchError { () async throws(FetchError) in
            // The redirect layer sends each hop through the live fetcher again, which checks it.
            try await RedirectFollower(wrapping: LiveFetcher(policy: policy))
                .fetch(FetchRequest(url: Link(test: server.url("/start"))))
        }
        await server.stop()
        #expect(error?.code == .blockedAddress, "\(error?.message ?? "followed")")
        #expect(server.requests.map(\.path) == ["/start"], "the first hop was allowed, the second refused")
    }

    @Test func connectsToTheAddressThatWasChecked() async throws {
        // DNS rebinding: a second lookup would answer differently. The fetcher must resolve once per hop and
        // connect to that answer; 127.0.0.2 has no listener, so reaching the server proves the pin.
        let server = try await Server.start { _ in .text("pinned") }
        let lookups = LookupCounter()
        let resolver = HostResolver { _ throws(FetchError) in
            lookups.next() == 1 ? [.v4(127, 0, 0, 1)] : [.v4(127, 0, 0, 2)]
        }
        let fetcher = LiveFetcher(policy: NetworkPolicy(allowPrivateAddresses: true, resolver: resolver))
        let response = try await fetcher.fetch(
            FetchRequest(url: Link(test: "http://rebind.attacker.example:\(server.port)/"))
        )
        await server.stop()
        #expect(response.text == "pinned")
        #expect(lookups.count == 1)
        #expect(server.requests.first?.header("Host") == "rebind.attacker.example:\(server.port)")
    }
}
