import ArgumentParser
import DomainClaims
import Foundation
import LinkRules

/// `switchyard claims`: what a site's files claim for a link (the default, ``ClaimsShowCommand``), `claims diff` and
/// `claims contract`.
struct ClaimsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "claims",
        abstract: "Show which apps a site's AASA and assetlinks.json files claim a link for, and by which rule.",
        subcommands: [ClaimsShowCommand.self, ClaimsDiffCommand.self, ClaimsContractCommand.self],
        defaultSubcommand: ClaimsShowCommand.self
    )
}

/// `switchyard claims [show] URL [--aasa FILE] [--assetlinks FILE]`: what a site's files claim for one link, and why
/// (fetched from the link's domain when no file is given); and `switchyard claims --protocol`, the conformance
/// protocol (one JSON request per line in, one answer per line out).
struct ClaimsShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract:
            "Show which apps a site's AASA and assetlinks.json files claim a link for, and by which rule (the default).",
        discussion: """
            Each app of the AASA file gets match, exclude or no_match with the deciding component as a JSON pointer; \
            each Android app the asset-links file trusts for App Links is listed with its Dynamic App Links decision. \
            Without --aasa and --assetlinks the files are fetched from the link's domain as the platforms fetch them \
            (https, .well-known then the root, no redirects, 128 KiB at most, assetlinks includes followed), with the \
            network options resolve takes. With --protocol, reads one JSON request per line (from --input or \
            standard input) and writes one answer per line: see Docs/CommandLine.md.
            """
    )

    @Argument(help: "The link (https) whose claims to show.")
    var url: String?

    @Option(help: ArgumentHelp("The site's apple-app-site-association file.", valueName: "file"), completion: .file())
    var aasa: String?

    @Option(
        help: ArgumentHelp("The site's assetlinks.json file.", valueName: "file"),
        completion: .file(extensions: ["json"])
    )
    var assetlinks: String?

    @Option(help: ArgumentHelp("The domain the files were served for (default: the link's host).", valueName: "host"))
    var domain: String?

    @Flag(help: "Print one JSON object.")
    var json = false

    @OptionGroup var lines: ProtocolOptions

    @OptionGroup(title: "Network (when the files are fetched)") var network: NetworkOptions

    func run() async throws {
        if lines.conformanceProtocol {
            guard url == nil else {
                throw CommandFailure(message: "error: --protocol takes no link: the requests name theirs")
            }
            return try await lines.answer { ClaimsProtocol.answer($0) }
        }
        guard let url else { throw CommandFailure(message: "error: claims needs a link (or --protocol)") }
        let link: Link
        do {
            link = try Link(url)
        } catch {
            throw CommandFailure(message: "error: \(error.message) [\(error.code.rawValue)]")
        }
        guard aasa != nil || assetlinks != nil else { return try await fetchAndShow(link) }
        let association = try aasa.map(Self.readAssociation)
        let statements = try assetlinks.map(Self.readStatements)
        let claims = SiteClaims(link: link, domain: domain, association: association, statements: statements)
        let output = CommandOutput.current
        if json { return try output.printJSON(claims) }
        output.print("\(claims.url) (files served for \(claims.domain))")
        if let aasa {
            output.print("\(aasa): apple-app-site-association")
            if claims.universalLinks.isEmpty { output.print("  no app") }
            for claim in claims.universalLinks {
                let rule = claim.decision.rule.map { "  by \($0)" } ?? ""
                output.print("  \(claim.appID): \(claim.decision.outcome.rawValue)\(rule)")
            }
        }
        if let assetlinks {
            output.print("\(assetlinks): Digital Asset Links (\(AssetRelation.handleAllURLs))")
            if claims.appLinks.isEmpty { output.print("  no app") }
            for app in claims.appLinks {
                let rule = app.decision.rule.map { "  by \($0)" } ?? ""
                output.print(
                    "  \(app.packageName): \(app.decision.outcome.rawValue)\(rule)  [\(app.fingerprints.joined(separator: ", "))]"
                )
            }
        }
        for note in claims.notes { output.print("note: \(note)") }
    }

    /// The AASA file at `path` (at most four times Apple's limit; `lint --aasa` says when it is over Apple's). What
    /// `lint --aasa` calls an error (a file that is not an object) is refused with the same lines, not read as a file
    /// that claims nothing.
    static func readAssociation(_ path: String) throws(CommandFailure) -> AppSiteAssociation {
        let association = try readFile(path, what: "AASA file") { bytes throws(DomainClaimsError) in
            try AppSiteAssociation(bytes: bytes)
        }
        let errors = association.diagnostics.filter { $0.severity == .error }
        guard let last = errors.last else { return association }
        for error in errors.dropLast() { CommandOutput.current.printError(error.description(file: path)) }
        throw CommandFailure(message: last.description(file: path))
    }

    private static func readStatements(_ path: String) throws(CommandFailure) -> AssetStatementList {
        try readFile(path, what: "asset-links file") { bytes throws(DomainClaimsError) in
            try AssetStatementList(bytes: bytes)
        }
    }

    /// A domain-association file read (at most four times Apple's limit) and parsed; a file that cannot be used or
    /// read is one line, as `lint --aasa` says it.
    private static func readFile<Parsed>(
        _ path: String,
        what: String,
        parse: (Data) throws(DomainClaimsError) -> Parsed
    ) throws(CommandFailure) -> Parsed {
        let data: Data
        do {
            data = try UserFile.read(path, maximumBytes: 4 * AppSiteAssociation.maximumBytes)
        } catch {
            throw CommandFailure(error, what: what)
        }
        do {
            return try parse(data)
        } catch {
            throw CommandFailure(message: error.diagnostic.description(file: path))
        }
    }
}

/// `switchyard claims diff OLD NEW [--corpus FILE]`: which links change decision between two AASA files.
struct ClaimsDiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "List the links whose decision changes between two versions of an AASA file.",
        discussion: """
            Without --corpus the links are made from both files' own patterns (each wildcard and variable filled a \
            short and a longer way) on --host. Each line is 'URL APP: OLD -> NEW'. Exits 1 when a decision changes.
            """
    )

    @Argument(help: "The old AASA file.", completion: .file())
    var old: String

    @Argument(help: "The new AASA file.", completion: .file())
    var new: String

    @Option(
        help: ArgumentHelp("A file with one link per line to decide under both files.", valueName: "file"),
        completion: .file()
    )
    var corpus: String?

    @Option(help: "The host of the links made from the patterns when no --corpus is given.")
    var host = "example.com"

    @Flag(help: "Print one JSON object: {urls, changes: [{url, appID, old, new}]}.")
    var json = false

    func run() throws {
        let diff = AASADiff(
            old: try ClaimsShowCommand.readAssociation(old),
            new: try ClaimsShowCommand.readAssociation(new)
        )
        let urls: [String]
        if let corpus {
            do {
                let text = String(decoding: try UserFile.read(corpus), as: UTF8.self)
                urls = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                    !$0.isEmpty
                }
            } catch {
                throw CommandFailure(error, what: "corpus")
            }
        } else {
            urls = diff.sampleURLs(host: host)
        }
        let changes = diff.changes(for: urls)
        let output = CommandOutput.current
        if json {
            try output.printJSON(DiffDocument(urls: urls.count, changes: changes))
        } else {
            for change in changes {
                output.print(
                    "\(change.url) \(change.appID): \(Self.describe(change.old)) -> \(Self.describe(change.new))"
                )
            }
            output.print("\(urls.count, "link"), \(changes.count, "changed decision")")
        }
        if !changes.isEmpty { throw ExitCode(1) }
    }

    private static func describe(_ decision: ClaimDecision) -> String {
        decision.outcome.rawValue + (decision.rule.map { " (\($0))" } ?? "")
    }

    private struct DiffDocument: Encodable {
        var urls: Int
        var changes: [AASADiff.Change]
    }
}
