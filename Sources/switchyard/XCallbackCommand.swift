import ArgumentParser
import Foundation
import XCallbackURL

/// `switchyard xcallback build|parse`: thin over the XCallbackURL library.
struct XCallbackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "xcallback",
        abstract: "Build and parse x-callback-url requests.",
        subcommands: [Build.self, Parse.self]
    )

    /// The callback policy flags both subcommands share.
    struct PolicyOptions: ParsableArguments {
        @Option(
            name: .customLong("allow-host"),
            help: ArgumentHelp("A host http(s) callbacks may point at (repeatable; default: none).", valueName: "host")
        )
        var allowedHosts: [String] = []

        @Option(
            name: .customLong("allow-scheme"),
            help: ArgumentHelp(
                "Accept only callbacks with these schemes (repeatable; default: any app scheme).",
                valueName: "scheme"
            )
        )
        var allowedSchemes: [String] = []

        var policy: CallbackPolicy {
            CallbackPolicy(
                allowedSchemes: allowedSchemes.isEmpty ? nil : Set(allowedSchemes),
                allowedWebHosts: Set(allowedHosts)
            )
        }
    }

    struct Build: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print an x-callback-url: SCHEME://x-callback-url/ACTION?x-source=…&x-success=…&params."
        )

        @Argument(help: "The target app's URL scheme (bear, tumblr, …).") var scheme: String
        @Argument(help: "The action (create, blog, …).") var action: String
        @Option(help: "x-source: the calling app's name.") var source: String?
        @Option(help: ArgumentHelp("x-success: the URL to open on success.", valueName: "url")) var success: String?
        @Option(help: ArgumentHelp("x-error: the URL to open on failure.", valueName: "url")) var error: String?
        @Option(help: ArgumentHelp("x-cancel: the URL to open on cancel.", valueName: "url")) var cancel: String?
        @Option(
            name: .customLong("param"),
            help: ArgumentHelp(
                "An action parameter, in order (repeatable); the value is encoded for you.",
                valueName: "name=value"
            )
        )
        var parameters: [String] = []
        @OptionGroup var policyOptions: PolicyOptions

        func run() throws {
            let pairs = try parameters.map { text throws(CommandFailure) in
                let (name, value) = try ParameterArgument.split(text, form: "name=value")
                return XCallbackRequest.Parameter(name, value)
            }
            do {
                let request = try XCallbackRequest(
                    scheme: scheme,
                    action: action,
                    source: source,
                    success: success,
                    error: error,
                    cancel: cancel,
                    parameters: pairs
                )
                CommandOutput.current.print(try request.url(policy: policyOptions.policy))
            } catch {
                throw CommandFailure(message: "error: \(error.description)")
            }
        }
    }

    struct Parse: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the parts of an x-callback-url (the callbacks are checked against the policy).",
            discussion: """
                --json prints one object with scheme, action, source, success, error, cancel (absent ones omitted) and \
                parameters: an array of {"name","value"} in URL order, where a parameter written without '=' has \
                "value": null.
                """
        )

        @Argument(help: "The x-callback-url.") var url: String
        @Flag(help: "Print one JSON object.") var json = false
        @OptionGroup var policyOptions: PolicyOptions

        func run() throws {
            let request: XCallbackRequest
            do {
                request = try XCallbackRequest(parsing: url, policy: policyOptions.policy)
            } catch {
                throw CommandFailure(message: "error: \(error.description)")
            }
            let output = CommandOutput.current
            if json {
                // Sorted keys, like every JSON the tool prints, so output is stable; parameter order is kept.
                try output.printJSON(request)
                return
            }
            output.print("scheme:    \(request.scheme)\naction:    \(request.action)")
            let callbacks = [
                ("x-source", request.source), ("x-success", request.success), ("x-error", request.error),
                ("x-cancel", request.cancel),
            ]
            for case (let name, let value?) in callbacks {
                output.print("\(name):\(String(repeating: " ", count: 10 - name.count))\(value)")
            }
            for parameter in request.parameters {
                output.print("param:     \(parameter.name) = \(parameter.value ?? "(no value)")")
            }
        }
    }
}
