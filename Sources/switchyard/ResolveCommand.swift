import ArgumentParser
import Foundation
import LinkMatching
import LinkResolver
import LinkRules
import WebLinks

/// `switchyard resolve URL`: every app action and browser that can open a link, with the native URL each produces.
struct ResolveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "List every app and browser that can open a link, with the native URL for each."
    )

    @Argument(help: "The link to resolve.")
    var url: String?

    /// Links after the first: refused with the hint of `--batch` (argument-parser would only say "Unexpected argument").
    @Argument(help: .hidden)
    var moreLinks: [String] = []

    @Option(
        help: ArgumentHelp(
            "Resolve many links: one per line from a file, or - for standard input; prints one JSON object per line, with its line number, as soon as it is resolved. Exits 1 when every non-blank line was refused.",
            valueName: "file"
        ),
        completion: .file()
    )
    var batch: String?

    @OptionGroup var options: ResolutionOptions

    @Flag(help: "Print one JSON object instead of a table.")
    var json = false

    @Flag(
        name: [.customLong("first"), .customLong("url-only")],
        help:
            "Print only the URL of the first opening (a preferred one first), for scripts: open \"$(switchyard resolve --first LINK)\". Exits 1 when no opening has a URL."
    )
    var first = false

    func validate() throws {
        if batch != nil, let url {
            throw ValidationError(
                "give a link or --batch FILE, not both: \"\(url.prefix(100))\" would be ignored (add it to the file)"
            )
        }
        if let extra = moreLinks.first {
            throw ValidationError(
                "resolve takes one link, and \"\(extra.prefix(100))\" is another: for several, put them in a file, one per line, and pass --batch FILE (or --batch - to read them from standard input)"
            )
        }
        if batch == nil && url == nil { throw ValidationError("give a link to resolve, or --batch FILE") }
        if first && (json || batch != nil) {
            throw ValidationError("--first prints one URL: it does not go with --json or --batch")
        }
    }

    func run() async throws {
        let resolver = try await options.resolver(runsScripts: !options.listing.noScripts)
        let request = try options.request()
        if let batch {
            try await resolveBatch(batch, resolver: resolver, request: request)
            return
        }
        guard let url else { return }
        let resolution: Resolution
        do {
            resolution = try await resolver.resolve(url, request)
        } catch {
            throw CommandFailure(message: "error: \(error.description)")
        }
        let output = CommandOutput.current
        output.printNotices(of: resolution)
        if first {
            guard let url = resolution.firstURL else {
                throw CommandFailure(message: "error: no opening of \(resolution.unwrapped) has a URL", exitCode: 1)
            }
            output.print(url)
        } else if json {
            try output.printJSON(resolution)
        } else {
            output.print(ResolutionTable.render(resolution))
        }
    }

    /// One JSON object per input line, in order, each written as soon as it is resolved (see ``BatchRun``).
    private func resolveBatch(_ source: String, resolver: Resolver, request: ResolveRequest) async throws {
        let input: UserFile.Reader
        do {
            input = source == "-" ? UserFile.standardInput() : try UserFile.open(source)
        } catch {
            throw CommandFailure(error, what: "batch input")
        }
        defer { input.close() }
        let run = try await BatchRun.resolve(BatchLines(input), resolver: resolver, request: request)
        if run.everyLineFailed { throw ExitCode(1) }
    }
}

extension Resolution {
    /// `resolve --first`: the URL of the first opening that has one, in this order: an opening preferred for the
    /// link (the remembered site's app, the user layer's `prefer`), an app's opening (actions, then claimed apps),
    /// the default browser, any other browser; within each, the document's order.
    var firstURL: String? {
        func rank(_ opening: Opening) -> Int {
            switch (opening.preferred?.by, opening.kind) {
            case (.rememberedSite?, _), (.userLayer?, _): 0
            case (_, .browser) where opening.preferred?.by == .rememberedDefault: 2
            case (_, .browser), (_, .preview): 3
            default: 1
            }
        }
        let candidates = openings.filter { $0.url != nil }.enumerated()
        return candidates.min { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }?.element.url
    }
}

/// The human-readable form of a resolution.
enum ResolutionTable {
    static func render(_ resolution: Resolution) -> String {
        var lines: [String] = []
        // The input as given may hold invisible format characters (a right-to-left override): shown encoded.
        lines.append("Input:     \(OutputSafety.visible(resolution.input))")
        if resolution.unwrapped != resolution.input { lines.append("Unwrapped: \(resolution.unwrapped)") }
        // Refused steps too: a short link whose last hop failed still shows how far it got, and why it stopped.
        for step in resolution.steps { lines.append("  \(step)") }
        if resolution.openings.isEmpty {
            lines.append("No app or browser opens this link.")
            return lines.joined(separator: "\n")
        }
        // A preferred opening is starred, in a first column that is there only when one is.
        var preferences: [OpeningPreference] = []
        for preference in resolution.openings.compactMap(\.preferred) where !preferences.contains(preference) {
            preferences.append(preference)
        }
        let rows = resolution.openings.map { opening -> [String] in
            let url =
                opening.url
                ?? (opening.needsScript
                    ? "(script: run to get the URL)" : "(no URL: \(opening.error?.message ?? "none"))")
            let kind = opening.kind.rawValue + (opening.layer == .user ? " (user)" : "")
            let cells = [kind, opening.app?.name ?? "-", opening.title, url]
            return preferences.isEmpty ? cells : [opening.preferred == nil ? " " : "*"] + cells
        }
        let headers = (preferences.isEmpty ? [] : [" "]) + ["KIND", "APP", "ACTION", "URL"]
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
        if !preferences.isEmpty { lines.append("") }
        for preference in preferences {
            lines.append("* preferred: \(preference.by.rawValue) \(OutputSafety.visible(preference.reason))")
        }
        return lines.joined(separator: "\n")
    }
}
