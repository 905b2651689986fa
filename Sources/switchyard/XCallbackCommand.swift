import ArgumentParser
import Foundation
import XCallbackURL

/// `switchyard xcallback build|parse`.
struct XCallbackCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "xcallback",
        abstract: "Build and parse x-callback-url requests.",
        subcommands: [Build.self, Parse.self]
    )

    struct Build: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print an x-callback-url: SCHEME://x-callback-url/ACTION?….")

        @Argument(help: "The target app's URL scheme.") var scheme: String
        @Argument(help: "The action.") var action: String
        @Option(help: "x-source: the calling app's name.") var source: String?
        @Option(help: "x-success callback URL.") var success: String?
        @Option(help: "x-error callback URL.") var error: String?
        @Option(help: "x-cancel callback URL.") var cancel: String?
        @Option(name: .customLong("param"), help: ArgumentHelp("An action parameter (repeatable).", valueName: "name=value")) var parameters: [String] = []

        func run() throws {
            let pairs = try parameters.map { text -> XCallbackRequest.Parameter in
                guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                    throw CommandFailure(message: "error: --param \"\(text)\" must be name=value")
                }
                return .init(String(text[..<equals]), String(text[text.index(after: equals)...]))
            }
            do {
                let request = try XCallbackRequest(scheme: scheme, action: action, source: source, success: success, error: error, cancel: cancel, parameters: pairs)
                print(try request.url())
            } catch let failure as XCallbackURLError {
                throw CommandFailure(message: "error: \(failure.description)")
            }
        }
    }

    struct Parse: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the parts of an x-callback-url.")

        @Argument(help: "The x-callback-url.") var url: String
        @Flag(help: "Print one JSON object.") var json = false

        func run() throws {
            let request: XCallbackRequest
            do {
                request = try XCallbackRequest(parsing: url)
            } catch {
                throw CommandFailure(message: "error: \(error.description)")
            }
            if json {
                try JSONOutput.print(request)
                return
            }
            print("scheme:  \(request.scheme)\naction:  \(request.action)")
            for (name, value) in [("x-source", request.source), ("x-success", request.success), ("x-error", request.error), ("x-cancel", request.cancel)] {
                if let value { print("\(name): \(value)") }
            }
            for parameter in request.parameters { print("param:   \(parameter.name) = \(parameter.value ?? "(no value)")") }
        }
    }
}
