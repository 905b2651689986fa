import ArgumentParser

/// The `switchyard` command: every subcommand is thin over a library target.
@main
struct Switchyard: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "switchyard",
        abstract: "Send every link to the app that should open it.",
        discussion: "Rule sets use the Opener manifest format (v1–v5). With no --manifest, the bundled rules are used.",
        subcommands: [
            ResolveCommand.self,
            TestCommand.self,
        ]
    )
}
