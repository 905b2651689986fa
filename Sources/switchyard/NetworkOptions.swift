import ArgumentParser
import Foundation
import LinkFetching
import LinkFetchingHTTP
import LinkMatching
import LinkResolver
import LinkRules
import LinkScripts

/// The network flags shared by commands that may fetch: scripts' `httpRequest`, short-link unwrapping, headers,
/// `--manifest https://…`. Everything goes through one `LinkFetching` built here, with one safety policy.
struct NetworkOptions: ParsableArguments {
    @Flag(help: "Forbid all network access (scripts that need it are reported as such).")
    var offline = false

    @Flag(help: "Allow network access where a command is offline by default (test).")
    var online = false

    @Option(
        help: ArgumentHelp(
            "Record every HTTP response into this fixtures folder (implies --online).",
            valueName: "dir"
        ),
        completion: .directory
    )
    var record: String?

    @Option(
        help: ArgumentHelp(
            "Answer every HTTP request from this fixtures folder; never touch the network.",
            valueName: "dir"
        ),
        completion: .directory
    )
    var replay: String?

    @Flag(help: "Let requests reach loopback and private addresses (local use and tests only).")
    var allowPrivateAddresses = false

    @OptionGroup var connection: ConnectionOptions

    @Option(
        help: ArgumentHelp(
            "Wall-clock limit of one resolution or test case, scripts and HTTP requests included, in seconds.",
            valueName: "seconds"
        )
    )
    var timeout: Double = 15

    @OptionGroup var scriptRequests: ScriptRequestLimit

    @OptionGroup var hostLimits: HostLimitOptions

    func validate() throws {
        if record != nil && replay != nil { throw ValidationError("--record and --replay cannot be used together") }
        if offline && (online || record != nil) {
            throw ValidationError("--offline cannot be combined with --online or --record")
        }
        do {
            _ = try ResolveRequest.timeLimit(seconds: timeout)
        } catch {
            throw ValidationError(error.message(naming: "--timeout"))
        }
    }

    /// The safety policy for live requests.
    var policy: NetworkPolicy {
        connection.policy(allowPrivateAddresses: allowPrivateAddresses)
    }

    /// The time limit of one resolution (or test case).
    var timeLimit: Duration { .milliseconds(Int(timeout * 1000)) }

    /// The fetcher to use, or nil when the command runs offline: the fetching stack (HTTP cache, coalescing, per-host
    /// limits) over the network, a recorder or a replayer. `onlineByDefault`: resolve goes online unless told
    /// otherwise; test stays offline unless told otherwise. A `--replay` folder that cannot be read stops the command.
    func fetcher(onlineByDefault: Bool) throws(CommandFailure) -> FetchingStack? {
        guard let upstream = try upstream(onlineByDefault: onlineByDefault) else { return nil }
        // Fixtures answer at once and ask no host: no limits over a replay.
        return FetchingStack(upstream: upstream, limits: replay == nil ? hostLimits.limits : nil)
    }

    /// What the stack fetches from: the network, a recorder over it, or a replayer; nil offline.
    private func upstream(onlineByDefault: Bool) throws(CommandFailure) -> (any LinkFetching)? {
        if let replay {
            do {
                try UserFile.requireDirectory(replay)
            } catch {
                throw CommandFailure(error, what: "fixtures folder")
            }
            return ReplayingFetcher(directory: URL(fileURLWithPath: replay))
        }
        if let record {
            // Created now when missing, so that it is there even when nothing is recorded (a run offline, rules
            // without network access) and `--replay DIR` works after it; something else there stops the command.
            if FileManager.default.fileExists(atPath: record) {
                do {
                    try UserFile.requireDirectory(record)
                } catch {
                    throw CommandFailure(error, what: "recording folder")
                }
            } else {
                try OutputFile.createDirectory(record, what: "recording folder")
            }
            return RecordingFetcher(
                wrapping: try connection.liveFetcher(policy: policy),
                directory: URL(fileURLWithPath: record)
            )
        }
        if offline { return nil }
        if online || onlineByDefault { return try connection.liveFetcher(policy: policy) }
        return nil
    }

    /// A resolver over `rules` with this network (online unless told otherwise, as `resolve` and `explain` are) and
    /// `stages`: scripts run in an engine on the same fetcher, or are listed unrun when `runsScripts` is false.
    func resolver(
        for rules: RuleSet,
        runsScripts: Bool,
        stages: ResolverStages = ResolverStages()
    ) throws(CommandFailure) -> Resolver {
        let fetcher = try fetcher(onlineByDefault: true)
        return Resolver(
            rules: rules,
            engine: runsScripts ? scriptEngine(fetcher: fetcher) : nil,
            fetcher: fetcher,
            stages: stages
        )
    }

    /// The script engine for this network: offline by default (`test`, `minify`, `migrate`) unless told otherwise.
    func scriptEngine(onlineByDefault: Bool = false) throws(CommandFailure) -> ScriptEngine {
        scriptEngine(fetcher: try fetcher(onlineByDefault: onlineByDefault))
    }

    private func scriptEngine(fetcher: (any LinkFetching)?) -> ScriptEngine {
        ScriptEngine(fetcher: fetcher, maximumSubrequests: scriptRequests.maximum)
    }

    /// The fixtures in the `--record` folder (nil when not recording): counted before and after a run, for its
    /// summary line (``recordingSummary(before:)``).
    func recordedFixtures() -> Int? {
        guard let record else { return nil }
        return ((try? FileManager.default.contentsOfDirectory(atPath: record)) ?? []).count { $0.hasSuffix(".json") }
    }

    /// `DIR: N new fixtures recorded, M in the folder`, or nil when not recording.
    func recordingSummary(before: Int?) -> String? {
        guard let record, let before, let after = recordedFixtures() else { return nil }
        return
            "\(record): \(after - before) new \(after - before == 1 ? "fixture" : "fixtures") recorded, \(after) in the folder"
    }

    /// Where downloaded manifests are cached (`$XDG_CACHE_HOME/switchyard/manifests`, else
    /// `~/.cache/switchyard/manifests`).
    static var cacheDirectory: URL {
        UserDirectories.current.cache.appendingPathComponent("switchyard/manifests")
    }
}

/// `--connect-to`, `--trust-ca`, `--connect-timeout` and `--read-timeout`, shared by the network options and `serve`:
/// where connections go, which extra certificate authority is trusted, and how long a host may take.
struct ConnectionOptions: ParsableArguments {
    @Option(
        name: .customLong("connect-to"),
        help: ArgumentHelp(
            "Connect requests for HOST:PORT to ADDRESS:PORT instead, keeping the host name for TLS and Host (as curl's --connect-to; repeatable; the address is checked by the network policy).",
            valueName: "host:port:address:port"
        )
    )
    var connectTo: [String] = []

    @Option(
        name: .customLong("trust-ca"),
        help: ArgumentHelp(
            "Also trust the certificate authorities in this PEM file (a private deployment's CA).",
            valueName: "file"
        ),
        completion: .file(extensions: ["pem", "crt"])
    )
    var trustCA: String?

    @Option(
        name: .customLong("connect-timeout"),
        help: ArgumentHelp(
            "Seconds a connection to a host (TCP and TLS) may take before it fails with E_CONNECT_TIMEOUT and the host is taken for down (0.05 to 60).",
            valueName: "seconds"
        )
    )
    var connectTimeout = NetworkPolicy().connectTimeout.timeInterval

    @Option(
        name: .customLong("read-timeout"),
        help: ArgumentHelp(
            "Seconds a host may stay silent once asked, before the request fails with E_TIMEOUT (0.05 to 600; the resolution's own limit still ends it sooner).",
            valueName: "seconds"
        )
    )
    var readTimeout = NetworkPolicy().readTimeout.timeInterval

    func validate() throws {
        try OptionRange.check(seconds: connectTimeout, in: 0.05...60, option: "--connect-timeout")
        try OptionRange.check(seconds: readTimeout, in: 0.05...600, option: "--read-timeout")
        for value in connectTo where ConnectionOverride(parsing: value) == nil {
            throw ValidationError(
                "--connect-to takes HOST:PORT:ADDRESS:PORT (IPv6 in brackets, ports 1 to 65535), not '\(value)'"
            )
        }
    }

    /// The overrides, in the order given.
    var overrides: [ConnectionOverride] { connectTo.compactMap(ConnectionOverride.init(parsing:)) }

    /// The standard policy with these overrides and time limits.
    func policy(allowPrivateAddresses: Bool) -> NetworkPolicy {
        var policy = NetworkPolicy(
            allowPrivateAddresses: allowPrivateAddresses,
            connectTimeout: .milliseconds(Int((connectTimeout * 1000).rounded())),
            readTimeout: .milliseconds(Int((readTimeout * 1000).rounded()))
        )
        policy.connectTo = overrides
        return policy
    }

    /// The network client under `policy`, trusting `--trust-ca` besides the system's authorities; a file that cannot
    /// be read or holds no certificate stops the command, naming it.
    func liveFetcher(policy: NetworkPolicy) throws(CommandFailure) -> LiveFetcher {
        guard let trustCA else { return LiveFetcher(policy: policy) }
        let pem: Data
        do {
            pem = try UserFile.read(trustCA, maximumBytes: 1 << 20)
        } catch {
            throw CommandFailure(error, what: "--trust-ca file")
        }
        do {
            return try LiveFetcher(policy: policy, trustingPEM: pem)
        } catch {
            throw CommandFailure(
                message:
                    "\(trustCA): error: the file holds no PEM certificate (-----BEGIN CERTIFICATE-----) that can be read"
            )
        }
    }
}

/// `--max-script-requests`, shared by the commands that run scripts and by `serve`.
struct ScriptRequestLimit: ParsableArguments {
    @Option(
        name: .customLong("max-script-requests"),
        help: ArgumentHelp(
            "The most network requests one script run may make; the next throws E_TOO_MANY_SUBREQUESTS in JavaScript.",
            valueName: "count"
        )
    )
    var maximum = ScriptConfiguration.defaultMaximumSubrequests

    func validate() throws {
        try OptionRange.check(maximum, in: 0...10_000, option: "--max-script-requests")
    }
}
