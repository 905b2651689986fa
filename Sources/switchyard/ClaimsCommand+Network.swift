import DomainClaims
import DomainClaimsStage
import LinkMatching
import WebLinks

extension ClaimsShowCommand {
    /// Fetches the link's domain files through the network options' fetcher and shows what they claim, each file with
    /// its URL and age, or why it gives nothing.
    func fetchAndShow(_ link: Link) async throws {
        guard let fetcher = try network.fetcher(onlineByDefault: true) else {
            throw CommandFailure(
                message:
                    "error: claims without --aasa or --assetlinks fetches the site's files, which --offline forbids"
            )
        }
        let fetched = await ClaimsLookup(fetcher: fetcher, deadline: .now + network.timeLimit).claims(for: link)
        let report = fetched.report()
        let output = CommandOutput.current
        if json { return try output.printJSON(report) }
        output.print("\(fetched.claims.url) (files served for \(fetched.claims.domain))")
        for file in report.files ?? [] {
            for line in ClaimsText.lines(of: file) { output.print(line) }
        }
        for note in fetched.claims.notes where !(report.files ?? []).contains(where: { $0.notes.contains(note) }) {
            output.print("note: \(note)")
        }
    }
}

/// A claims file as text, for `claims URL` and `explain --claims`.
enum ClaimsText {
    /// `URL: KIND (age Ns)` and each app's decision, or `URL: KIND: no claims: WHY`; then its notes, indented by
    /// `indent`.
    static func lines(of file: ClaimsFileTrace, indent: String = "") -> [String] {
        var lines: [String] = []
        if let problem = file.problem {
            lines.append("\(indent)\(file.url): \(file.kind): no claims: \(problem)")
        } else {
            lines.append("\(indent)\(file.url): \(file.kind) (age \(file.age ?? 0)s)")
            if file.claims.isEmpty { lines.append("\(indent)  no app") }
            for claim in file.claims {
                let rule = claim.rule.map { "  by \($0)" } ?? ""
                let place = claim.file.map { " in \($0)" } ?? ""
                let app = claim.manifestApp.map { " (\($0))" } ?? ""
                let listed = claim.notListed.map { " (not listed: \($0))" } ?? ""
                lines.append("\(indent)  \(claim.app)\(app): \(claim.outcome)\(rule)\(place)\(listed)")
            }
        }
        for note in file.notes { lines.append("\(indent)  note: \(note)") }
        return lines
    }
}
