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
        try OptionRange.check(concurrentRequests, in: 1...1000, option: "--per-host-requests")
        try OptionRange.check(requestsPerSecond, in: 0.01...100_000, option: "--per-host-rate")
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
