import ArgumentParser
import Foundation
import LinkResolver
import LinkRules

/// `switchyard resolve URL`: every app action and browser that can open a link, with the native URL each produces.
struct ResolveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "List every app and browser that can open a link, with the native URL for each."
    )

    @Argument(help: "The link to resolve.")
    var url: String

    @OptionGroup var manifestOptions: ManifestOptions

    @Option(help: ArgumentHelp("Only list apps with these URL schemes (comma-separated), as installed on a device.", valueName: "schemes"))
    var installed: String?

    @Option(help: ArgumentHelp("Drop apps limited to the other device family.", valueName: "phone|pad"))
    var platform: Platform?

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    func run() async throws {
        let rules = try manifestOptions.loadRules()
        var options = ResolveOptions(platform: platform)
        if let installed {
            options.installedSchemes = Set(installed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty })
        }
        let resolution = rules.resolve(url, options: options)
        if json {
            try JSONOutput.print(ResolutionDocument(resolution))
        } else {
            print(ResolutionTable.render(resolution))
        }
    }
}

extension Platform: ExpressibleByArgument {}

/// The human-readable form of a resolution.
enum ResolutionTable {
    static func render(_ resolution: Resolution) -> String {
        var lines: [String] = []
        lines.append("Input:     \(resolution.input)")
        if resolution.unwrapped != resolution.input {
            lines.append("Unwrapped: \(resolution.unwrapped)")
            for step in resolution.steps { lines.append("  via \(step.kind) \(step.rule)") }
        }
        if resolution.openings.isEmpty {
            lines.append("No app or browser opens this link.")
            return lines.joined(separator: "\n")
        }
        let rows = resolution.openings.map { opening -> [String] in
            let url = opening.url ?? (opening.needsScript ? "(script: run to get the URL)" : "(no URL: \(opening.scriptError ?? "none"))")
            return [opening.kind.rawValue, opening.app?.name ?? "-", opening.title, url]
        }
        let headers = ["KIND", "APP", "ACTION", "URL"]
        var widths = headers.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated().dropLast() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }
        lines.append("")
        lines.append(line(headers))
        lines += rows.map(line)
        return lines.joined(separator: "\n")
    }
}
