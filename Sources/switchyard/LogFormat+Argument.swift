import ArgumentParser
import LinkServer
import Logging

/// `--log-format text|json`.
extension LogFormat: ExpressibleByArgument {}

/// `--log-level`: swift-log's own levels, by the names it gives them (argument-parser reads and lists a `String`
/// raw-valued, case-iterable enum as it is).
extension Logger.Level: @retroactive ExpressibleByArgument {}
