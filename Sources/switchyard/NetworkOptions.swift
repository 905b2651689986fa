import ArgumentParser
import Foundation
import LinkFetching
import LinkFetchingHTTP

/// The network flags shared by commands that may fetch: scripts' `httpRequest`, short-link unwrapping, headers,
/// `--manifest https://…`. Everything goes through one `LinkFetching` built here, with one safety policy.
struct NetworkOptions: ParsableArguments {
    @Flag(help: "Forbid all network access (scripts that need it are reported as such).")
    var offline = false

    @Flag(help: "Allow network access where a command is offline by default (test).")
    var online = false

    @Option(
        help: ArgumentHelp("Record every HTTP response into this fixtures folder (implies --online).", valueName: "dir")
    )
    var record: String?

    @Option(
        help: ArgumentHelp(
            "Answer every HTTP request from this fixtures folder; never touch the network.",
            valueName: "dir"
        )
    )
    var replay: String?

    @Flag(help: "Let requests reach loopback and private addresses (local use and tests only).")
    var allowPrivateAddresses = false

    @Option(
        help: ArgumentHelp(
            "Wall-clock limit of one resolution or test case, scripts and HTTP requests included, in seconds.",
            valueName: "seconds"
        )
    )
    var timeout: Double = 15

    func validate() throws {
        if record != nil && replay != nil { throw ValidationError("--record and --replay cannot be used together") }
        if offline && (online || record != nil) {
            throw ValidationError("--offline cannot be combined with --online or --record")
        }
        guard timeout > 0, timeout <= 600 else { throw ValidationError("--timeout must be between 0 and 600 seconds") }
    }

    /// The safety policy for live requests.
    var policy: NetworkPolicy {
        NetworkPolicy(allowPrivateAddresses: allowPrivateAddresses)
    }

    /// The time limit of one resolution (or test case).
    var timeLimit: Duration { .milliseconds(Int(timeout * 1000)) }

    /// The fetcher to use, or nil when the command runs offline. `onlineByDefault`: resolve goes online unless told
    /// otherwise; test stays offline unless told otherwise.
    func fetcher(onlineByDefault: Bool) -> (any LinkFetching)? {
        if let replay { return ReplayingFetcher(directory: URL(fileURLWithPath: replay)) }
        if let record {
            return RecordingFetcher(wrapping: LiveFetcher(policy: policy), directory: URL(fileURLWithPath: record))
        }
        if offline { return nil }
        if online || onlineByDefault { return LiveFetcher(policy: policy) }
        return nil
    }

    /// Where downloaded manifests are cached (`$XDG_CACHE_HOME/switchyard`, else `~/.cache/switchyard`).
    static var cacheDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_CACHE_HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        return base.appendingPathComponent("switchyard/manifests")
    }
}
