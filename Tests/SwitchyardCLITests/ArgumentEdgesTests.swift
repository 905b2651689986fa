import ArgumentParser
import Foundation
import LinkResolver
import LinkRules
import Logging
import SwitchyardTestSupport
import Testing

@testable import switchyard

/// The edges of the command line: `--version`, usage errors with their usage line, values read as enums that list
/// the valid ones, and `serve`'s port.
@Suite struct ArgumentEdgesTests {
    @Test(arguments: CommandRunner.allCases)
    func printsTheVersion(_ runner: CommandRunner) async throws {
        let output = try await runner.run(["--version"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == SwitchyardVersion.current + "\n")
        #expect(output.stderr.isEmpty)
    }

    /// A usage error: the tool's `error: ` line first, then argument-parser's usage line of the command at fault.
    struct UsageCase: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var error: String
        var usage: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let usageCases: [UsageCase] = [
        UsageCase(
            arguments: ["serve", "--port", "99999"],
            error: #"error: --port takes a whole number from 0 to 65535 (0: any free port), not "99999""#,
            usage: "Usage: switchyard serve "
        ),
        UsageCase(
            arguments: ["serve", "--port=-1"],
            error: #"error: --port takes a whole number from 0 to 65535 (0: any free port), not "-1""#,
            usage: "Usage: switchyard serve "
        ),
        UsageCase(
            arguments: ["resolve", "--bogus", "https://x.example/"],
            error: "error: Unknown option '--bogus'",
            usage: "Usage: switchyard resolve "
        ),
        UsageCase(
            arguments: ["migrate", "m.json"],
            error: "error: Missing expected argument '--to <version>'",
            usage: "Usage: switchyard migrate "
        ),
    ]

    /// Every number option's message says the range it takes, in one style, with the value given; none crashes on a
    /// value out of range (`--reload-interval nan` trapped, `--generated=-5` crashed, `--reload-interval 0` was made
    /// 0.05 in silence, and `--timeout 0.0004` was refused as not "more than 0").
    @Test(arguments: [
        (["resolve", "--timeout", "0", "x"], #"--timeout takes seconds, at least 0.001 and at most 600, not "0""#),
        (
            ["resolve", "--timeout", "0.0004", "x"],
            #"--timeout takes seconds, at least 0.001 and at most 600, not "0.0004""#
        ),
        (["serve", "--timeout", "nan"], #"--timeout takes seconds, at least 0.001 and at most 600, not "nan""#),
        (
            ["resolve", "--max-script-requests=-1", "x"],
            #"--max-script-requests takes a whole number from 0 to 10000, not "-1""#
        ),
        (
            ["serve", "--cache-max-age=-1"],
            #"--cache-max-age takes whole seconds from 0 to 31536000 (a year), not "-1""#
        ),
        (
            ["serve", "--reload-interval", "0"],
            #"--reload-interval takes seconds, at least 0.05 and at most 86400, not "0""#
        ),
        (
            ["serve", "--reload-interval", "nan"],
            #"--reload-interval takes seconds, at least 0.05 and at most 86400, not "nan""#
        ),
        (
            ["resolve", "--per-host-requests", "0", "x"],
            #"--per-host-requests takes a whole number from 1 to 1000, not "0""#
        ),
        (["resolve", "--per-host-rate", "0", "x"], #"--per-host-rate takes a number from 0.01 to 100000, not "0""#),
        (["bench", "--generated=-5"], #"--generated takes a whole number from 0 to 1000000, not "-5""#),
        (["bench", "--naive-repetitions", "0"], #"--naive-repetitions takes a whole number from 1 to 1000, not "0""#),
        (
            ["bench", "--compiled-repetitions", "1001"],
            #"--compiled-repetitions takes a whole number from 1 to 1000, not "1001""#
        ),
    ])
    func rangeMessagesSayTheTrueRange(arguments: [String], message: String) async {
        let output = await InProcessCommand.run(arguments)
        #expect(output.status == 2, "\(output.stderr)")
        #expect(output.stderrLines.first == "error: " + message, "\(output.stderr)")
    }

    @Test(arguments: usageCases)
    func usageErrorsShowTheUsageLine(_ usage: UsageCase) async {
        let output = await InProcessCommand.run(usage.arguments)
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        #expect(output.stderrLines.first == usage.error, "\(output.stderr)")
        #expect(output.stderrLines.contains { $0.hasPrefix(usage.usage) }, "\(output.stderr)")
        #expect(!output.stderr.contains("Error: "))
    }

    /// `--log-level` and `migrate --to` are enums: a bad value lists every valid one.
    @Test(arguments: [
        (["serve", "--log-level", "loud"], ["trace", "debug", "info", "notice", "warning", "error", "critical"]),
        (["migrate", "m.json", "--to", "v9"], ["'v1'", "'v2'", "'v3'", "'v4'", "'v5'"]),
    ])
    func badEnumValuesListTheValidOnes(_ arguments: [String], valid: [String]) async {
        let output = await InProcessCommand.run(arguments)
        #expect(output.status == 2)
        #expect(output.stderrLines.first?.hasPrefix("error: The value '\(arguments.last!)' is invalid") == true)
        for value in valid { #expect(output.stderr.contains(value), "\(value) missing from \(output.stderr)") }
    }

    @Test(arguments: [("v5", ManifestVersion.v5), ("5", .v5), ("V2", .v2), ("v1", .v1)])
    func migrateReadsTheTargetVersion(_ text: String, version: ManifestVersion) throws {
        let command = try #require(try Switchyard.parseAsRoot(["migrate", "m.json", "--to", text]) as? MigrateCommand)
        #expect(command.to.version == version)
    }

    @Test(arguments: Logger.Level.allCases)
    func logLevelsAreSwiftLogsLevels(_ level: Logger.Level) throws {
        let command = try #require(
            try Switchyard.parseAsRoot(["serve", "--log-level", level.rawValue]) as? ServeCommand
        )
        #expect(command.logLevel == level)
        #expect(String(describing: command.logLevel) == level.rawValue)
    }

    /// A port another server holds: one line naming the address, status 2, none of NIO's text.
    @Test func aPortInUseIsOneLineNamingTheAddress() async throws {
        let holder = try await LoopbackHTTPServer.start { _ in .text("busy") }
        defer { Task { await holder.stop() } }
        let output = await InProcessCommand.run([
            "serve", "--host", "127.0.0.1", "--port", String(holder.port), "--log-level", "critical",
        ])
        #expect(output.status == 2)
        #expect(
            output.stderrLines == ["error: cannot listen on 127.0.0.1:\(holder.port): the address is already in use"],
            "\(output.stderr)"
        )
    }

    /// A misspelt command gets a "did you mean" as a misspelt option does, with the root's usage line and status 2
    /// (argument-parser said `Unexpected argument 'reslove'`); a word far from every command lists them.
    @Test(arguments: [
        (["reslove", "https://twitter.com/jack"], "error: unknown command 'reslove'; did you mean 'resolve'?"),
        (["serv"], "error: unknown command 'serv'; did you mean 'serve'?"),
        (
            ["frobnicate"],
            "error: unknown command 'frobnicate' (the commands: bench, choose, claims, clean, explain, help, lint, migrate, minify, predict, resolve, serve, test, xcallback)"
        ),
    ])
    func aMisspeltCommandGetsASuggestion(arguments: [String], error: String) async {
        let output = await InProcessCommand.run(arguments)
        #expect(output.status == 2)
        #expect(output.stderrLines.first == error, "\(output.stderr)")
        #expect(output.stderrLines.dropFirst().first == "Usage: switchyard <subcommand>")
    }

    /// A host that is not one (`0.0.0.0.0`) is one line in the tool's words, status 2: NIO's
    /// `SocketAddressError.UnknownHost: …` text with argument-parser's `Error:` and status 1 reached the user.
    @Test func aHostThatDoesNotResolveIsOneLineInTheToolsWords() async {
        let output = await InProcessCommand.run([
            "serve", "--host", "0.0.0.0.0", "--port", "0", "--offline", "--log-level", "critical",
        ])
        #expect(output.status == 2, "\(output.stderr)")
        #expect(
            output.stderrLines == ["error: cannot listen on 0.0.0.0.0:0: the host name does not resolve to an address"],
            "\(output.stderr)"
        )
        #expect(!output.stderr.contains("SocketAddressError"))
    }
}

/// The choices store and the download cache follow the XDG base directories of the run's environment.
@Suite struct UserDirectoriesTests {
    @Test func theChoicesStoreHonoursXDGDataHome() async throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        let output = await InProcessCommand.run(
            ["choose", "--type", "maps", "--set-default", "waze"],
            environment: ["XDG_DATA_HOME": data.path, "HOME": directory.url.appendingPathComponent("home").path]
        )
        #expect(output.status == 0, "\(output.stderr)")
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("switchyard/choices.sqlite").path))
        #expect(!FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("home").path))
    }

    /// Unset, empty or relative (which the specification says to ignore): `$HOME/.local/share`.
    @Test(arguments: [nil, "", "relative/data"])
    func theChoicesStoreFallsBackToHome(_ dataHome: String?) async throws {
        let directory = try TemporaryDirectory()
        var environment = ["HOME": directory.url.path]
        environment["XDG_DATA_HOME"] = dataHome
        let output = await InProcessCommand.run(
            ["choose", "--type", "maps", "--set-default", "waze"],
            environment: environment
        )
        #expect(output.status == 0, "\(output.stderr)")
        let store = directory.url.appendingPathComponent(".local/share/switchyard/choices.sqlite")
        #expect(FileManager.default.fileExists(atPath: store.path))
    }

    @Test func theCacheHonoursXDGCacheHomeThenHome() {
        let withCache = UserDirectories(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"])
        #expect(withCache.cache.path == "/c")
        let withHome = UserDirectories(environment: ["HOME": "/h"])
        #expect(withHome.cache.path == "/h/.cache")
        #expect(withHome.data.path == "/h/.local/share")
    }
}
