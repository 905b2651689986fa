import DomainClaims
import Foundation
import WebLinks

/// Fuzzes the domain-claims readers and matcher: input `AASA NUL link NUL assetlinks.json`.
///
/// Invariants: reading, linting and deciding never crash; every diagnostic's position is inside the input; a decision
/// is `no_match` exactly when it names no rule; the decisions (and the rules that made them) for every app the file
/// names, and for one it does not, are unchanged when the file is re-serialised (compact and pretty); the same for
/// each Android app's Dynamic App Links decision and for the asset-links statements; the protocol answers the raw
/// input, and the AASA and asset-links requests built from it, with one JSON object that carries an id.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    let fields = bytes.split(separator: FuzzInput.separator, maxSplits: 2, omittingEmptySubsequences: false).map(
        Array.init
    )
    let aasa = fields[0]
    let url = fields.count > 1 ? FuzzInput.text(fields[1]) : "https://example.com/"
    let statements = fields.count > 2 ? fields[2] : []
    DomainClaimsFuzzer.checkAssociation(aasa, url: url)
    DomainClaimsFuzzer.checkStatements(statements, url: url)
    DomainClaimsFuzzer.checkProtocol(aasa: aasa, url: url, statements: statements)
    return 0
}

/// The checks of the domain-claims target.
enum DomainClaimsFuzzer {
    static func checkAssociation(_ bytes: [UInt8], url: String) {
        guard let json = try? JSONReader().parse(bytes) else {
            fuzzExpect(
                (try? AppSiteAssociation(bytes: bytes)) == nil,
                "a text JSONReader refuses was read as an AASA file"
            )
            return
        }
        let file = AppSiteAssociation(json: json)
        for diagnostic in file.diagnostics {
            if let position = diagnostic.position {
                fuzzExpect(
                    position.offset <= bytes.count,
                    "a diagnostic at \(position) outside the input: \(diagnostic)"
                )
            }
        }
        for diagnostic in (try? AASALinter().lint(bytes)) ?? [] {
            fuzzExpect(!diagnostic.message.isEmpty, "a lint diagnostic without a message")
        }
        let link = try? Link(url)
        let domain = link?.hostName ?? "example.com"
        let apps = file.appIDs + ["ABCDE12345.com.not.named"]
        let decisions = apps.map { file.decision(for: $0, url: url, domain: domain) }
        for decision in decisions {
            fuzzExpect(
                (decision.outcome == .noMatch) == (decision.rule == nil),
                "a decision \(decision) with(out) a rule"
            )
        }
        for style in [JSONWriter.Style.compact, .pretty(indent: 3)] {
            let text = JSONWriter(style: style).write(json)
            guard let again = try? AppSiteAssociation(bytes: Array(text.utf8)) else {
                fuzzExpect(false, "the re-serialised file does not read: \(FuzzInput.preview(text))")
                return
            }
            let redecided = apps.map { again.decision(for: $0, url: url, domain: domain) }
            fuzzExpect(
                redecided == decisions,
                "re-serialising changed decisions for \(FuzzInput.preview(url)): \(decisions) became \(redecided) (\(FuzzInput.preview(text)))"
            )
        }
        if let link {
            _ = SiteClaims(link: link, association: file, statements: nil)
        }
    }

    static func checkStatements(_ bytes: [UInt8], url: String) {
        guard let list = try? AssetStatementList(bytes: bytes), let json = try? JSONReader().parse(bytes) else {
            return
        }
        for diagnostic in list.diagnostics {
            if let position = diagnostic.position {
                fuzzExpect(
                    position.offset <= bytes.count,
                    "a diagnostic at \(position) outside the input: \(diagnostic)"
                )
            }
        }
        let link = try? Link(url)
        let decisions = link.map { link in list.statements.map { $0.dynamicDecision(for: link, domain: link.hostName) }
        }
        let text = JSONWriter(style: .compact).write(json)
        guard let again = try? AssetStatementList(bytes: Array(text.utf8)) else {
            fuzzExpect(false, "the re-serialised statement list does not read: \(FuzzInput.preview(text))")
            return
        }
        fuzzExpect(
            again.statements == list.statements,
            "re-serialising changed the statements of \(FuzzInput.preview(text))"
        )
        if let link {
            let redecided = again.statements.map { $0.dynamicDecision(for: link, domain: link.hostName) }
            fuzzExpect(
                redecided == decisions,
                "re-serialising changed Dynamic App Links decisions for \(FuzzInput.preview(url))"
            )
            _ = SiteClaims(link: link, association: nil, statements: list)
        }
    }

    static func checkProtocol(aasa: [UInt8], url: String, statements: [UInt8]) {
        let file = FuzzInput.text(aasa)
        let lines = [
            file,
            #"{"id":1,"aasa":\#(FuzzInput.jsonString(file)),"domain":"example.com","appId":"A.b","url":\#(FuzzInput.jsonString(url))}"#,
            #"{"id":2,"files":{"https://example.com/.well-known/assetlinks.json":\#(FuzzInput.jsonString(FuzzInput.text(statements)))},"source":"https://example.com","relation":"delegate_permission/common.handle_all_urls","target":{"namespace":"web","site":\#(FuzzInput.jsonString(url))}}"#,
        ]
        for line in lines {
            let answer = ClaimsProtocol.answer(line)
            guard let node = try? JSONReader().parse(answer), node.members != nil else {
                fuzzExpect(false, "the answer \(FuzzInput.preview(answer)) is not a JSON object")
                return
            }
            fuzzExpect(node["id"] != nil, "the answer \(FuzzInput.preview(answer)) has no id")
        }
    }
}
