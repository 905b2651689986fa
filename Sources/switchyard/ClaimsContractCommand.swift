import ArgumentParser
import AssociationContract
import DomainClaims
import Foundation
import LinkRules

/// `switchyard claims contract --routes FILE --app ID --domain HOST [--check AASA]`: the AASA file (and Android
/// intent-filter paths) an app's routes need, or a published file checked against them.
struct ClaimsContractCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contract",
        abstract: "Write the AASA components an app's routes need, or check a published file against the routes.",
        discussion: """
            Routes are DeeplinkTemplates patterns, one per line: literal text, {name} for one segment, {name...} for the \
            rest (/artist/{slug}/{id}, /files/{path...}, /search?q={query}); blank lines and lines starting with # are \
            skipped. Without --check, prints the apple-app-site-association file that claims them (with --android, the \
            intent-filter <data> elements instead). With --check, prints each disagreement and exits 1 when there is one.
            """
    )

    @Option(help: ArgumentHelp("The app's routes, one per line.", valueName: "file"), completion: .file())
    var routes: String

    @Option(help: ArgumentHelp("The app ID (TEAMID.bundle.id).", valueName: "id"))
    var app: String

    @Option(help: ArgumentHelp("The domain the file is served on.", valueName: "host"))
    var domain: String

    @Option(
        help: ArgumentHelp("A published AASA file to check against the routes.", valueName: "file"),
        completion: .file()
    )
    var check: String?

    @Flag(help: "Print the Android intent-filter <data> elements for the routes instead.")
    var android = false

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() throws {
        let text: String
        do {
            text = String(decoding: try UserFile.read(routes), as: UTF8.self)
        } catch {
            throw CommandFailure(error, what: "route list")
        }
        var parsed: [AssociationRoute] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let route = line.trimmingCharacters(in: .whitespaces)
            if route.isEmpty || route.hasPrefix("#") { continue }
            do {
                parsed.append(try AssociationRoute(route))
            } catch {
                throw CommandFailure(message: "\(routes):\(index + 1):1: error: \(error.message)")
            }
        }
        let contract = AssociationContract(appID: app, domain: domain, routes: parsed)
        let output = CommandOutput.current
        if let check {
            let problems = contract.check(try ClaimsShowCommand.readAssociation(check))
            if json {
                try output.printJSON(problems)
            } else {
                for problem in problems { output.print("\(check): \(problem.description)") }
                output.print("\(check): \(parsed.count, "route"), \(problems.count, "disagreement")")
            }
            if !problems.isEmpty { throw ExitCode(1) }
        } else if android {
            let paths = contract.intentFilterPaths()
            if json { return try output.printJSON(paths) }
            for path in paths { output.print(path.xml(host: domain)) }
        } else {
            if json { return try output.printJSON(contract.components()) }
            output.print(contract.associationFile(), terminator: "")
            for component in contract.components() where !component.isExact {
                output.printError(
                    "note: the component for \(component.route) claims more than the route opens (AASA's * also takes /, and a missing query item reads as empty)"
                )
            }
        }
    }
}
