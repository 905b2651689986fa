import Foundation
import LinkMatching
import LinkRules
import SwitchyardBenchmarks
import WebLinks

/// Fuzzes the template renderer: a tiny manifest is compiled around a fuzzed regex and template, and a fuzzed link is
/// resolved through the ``RuleSet``.
///
/// Input: `regex NUL template NUL link NUL options`, split with ``FuzzInput/fields(_:count:)``; the first byte of
/// `options` chooses whether the pair is also a redirect rule. The regex and template become an action (rendered
/// from ICU's matches, through `TemplateParts` for ASCII links), a browser (through `TrivialPattern` when the
/// regex has a trivial shape) and a preview.
///
/// Invariants: compiling and resolving never crash; resolution returns within the regex budget (plus slack for
/// the sanitizers); every URL handed out passes `OutputSafety`; and, when no regex ran out of time, the compiled
/// matcher gives exactly the naive loop's openings (`naiveOpenings`, every regex through `NSRegularExpression`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let fields = FuzzInput.fields(FuzzInput.bytes(data, size), count: 4)
    let (regex, template, linkText) = (fields[0], fields[1], fields[2])
    let withRedirect = (fields[3].utf8.first ?? 0) & 1 == 1
    let text = TemplateRendererFuzzer.manifest(regex: regex, template: template, withRedirect: withRedirect)
    let loaded: LoadedManifest
    do throws(ManifestError) {
        loaded = try ManifestLoader().load(text, file: "fuzz.json")
    } catch {
        fuzzExpect(false, "the generated manifest did not load: \(error)\n\(FuzzInput.preview(text, limit: 2000))")
        return 0
    }
    let rules = RuleSet(loaded, scriptChecker: nil)
    let budget = MatchBudget()
    // Text the normaliser refuses never reaches the matcher (the link-input target fuzzes the normaliser itself).
    guard let link = try? Link(linkText) else { return 0 }
    let (resolution, elapsed) = fuzzTimed { rules.resolve(link, options: MatchOptions(budget: budget)) }
    let context =
        "regex \(FuzzInput.preview(regex)), template \(FuzzInput.preview(template)), link \(FuzzInput.preview(linkText))"
    // The regex budget bounds matching; the slack covers compiling-free work (rendering, redirects, sanitizers).
    fuzzExpect(
        elapsed < budget.perResolution + .milliseconds(500),
        "resolution took \(elapsed), over its budget: \(context)"
    )
    for opening in resolution.openings {
        if let url = opening.url {
            fuzzExpect(
                OutputSafety.problem(with: url) == nil,
                "\(opening.rule) handed out the unsafe URL \(FuzzInput.preview(url)): \(context)"
            )
        }
    }
    guard resolution.timedOutRules.isEmpty else { return 0 }
    guard let unwrapped = try? Link(resolution.unwrapped) else {
        fuzzExpect(
            false,
            "the unwrapped link \(FuzzInput.preview(resolution.unwrapped)) does not normalise: \(context)"
        )
        return 0
    }
    let naive = rules.naiveOpenings(for: unwrapped)
    fuzzExpect(
        naive == resolution.openings,
        "the compiled matcher disagrees with the naive loop on \(FuzzInput.preview(resolution.unwrapped)): "
            + "compiled \(TemplateRendererFuzzer.describe(resolution.openings)), naive \(TemplateRendererFuzzer.describe(naive)); \(context)"
    )
    return 0
}

/// The manifest and messages of the template renderer target.
enum TemplateRendererFuzzer {
    /// A v5 manifest with one app and the fuzzed pair as an action, a browser, a preview and optionally a redirect.
    static func manifest(regex: String, template: String, withRedirect: Bool) -> String {
        let pattern = FuzzInput.jsonString(regex)
        let format = FuzzInput.jsonString(template)
        let redirects = withRedirect ? "{\(pattern): {\"format\": \(format)}}" : "{}"
        return """
            {"apps": [{"identifier": "alpha", "name": "Alpha", "scheme": "alpha", "storeId": 1}],
             "actions": [{"title": "Fuzzed", "regex": \(pattern), "formats": [{"appId": "alpha", "format": \(format)}]}],
             "browsers": [{"identifier": "beta", "name": "Beta", "scheme": "beta", "regex": \(pattern), "format": \(format)}],
             "previews": [{"regex": \(pattern), "format": \(format)}],
             "redirects": \(redirects)}
            """
    }

    /// `rule=url` for each opening, for failure messages.
    static func describe(_ openings: [Opening]) -> String {
        "[" + openings.map { "\($0.rule)=\($0.url.map { FuzzInput.preview($0) } ?? "nil")" }.joined(separator: ", ")
            + "]"
    }
}
