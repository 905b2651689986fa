import ArgumentParser
import LinkFetching

/// `--per-host-requests` and `--per-host-rate`: how politely every upstream host is treated (the fetching stack's
/// `HostLimits`), shared by the commands that fetch and by `serve`.
struct HostLimitOptions: ParsableArguments {
    @Option(
        name: .customLong("per-host-requests"),
        help: ArgumentHelp("The most requests to one upstream host at once (1–1000).", valueName: "count")
    )
    var concurrentRequests = HostLimits().maxConcurrentRequests

    @Option(
        name: .customLong("per-host-rate"),
        help: ArgumentHelp(
            "The most requests per second to one upstream host, on average (0.01–100000); a host's 429 or 503 with Retry-After is always honoured.",
            valueName: "per-second"
        )
    )
    var requestsPerSecond = HostLimits().requestsPerSecond

    func validate() throws {
        guard (1...1000).contains(concurrentRequests) else {
            throw ValidationError("--per-host-requests takes a whole number from 1 to 1000, not \(concurrentRequests)")
        }
        guard requestsPerSecond.isFinite, (0.01...100_000).contains(requestsPerSecond) else {
            throw ValidationError("--per-host-rate takes a number from 0.01 to 100000, not \(requestsPerSecond)")
        }
    }

    /// The limits: bursts as large as a second's worth of requests, at least the default's.
    var limits: HostLimits {
        HostLimits(
            maxConcurrentRequests: concurrentRequests,
            requestsPerSecond: requestsPerSecond,
            burst: max(HostLimits().burst, Int(requestsPerSecond.rounded(.up)))
        )
    }
}
