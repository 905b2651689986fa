import ArgumentParser
import LinkServer

/// `--log-format text|json`.
extension LogFormat: ExpressibleByArgument {}
