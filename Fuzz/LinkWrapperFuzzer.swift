import Foundation
import LinkWrappers
import WebLinks

/// Fuzzes LinkWrappers with arbitrary text: the built-in catalog's decoders (on the input as a link, and as the payload
/// of each kind of wrapper), the refresh steps, the meta-refresh scanner and the entries' reader.
///
/// Invariants: nothing crashes or hangs; decoding is deterministic, each step goes from the previous link to one the
/// link parser gives back unchanged, within the depth and length limits, and a stop names its wrapper; a refresh's
/// link parses to itself, and a `<meta http-equiv="refresh">` whose content is the input (escaped as HTML) gives the
/// same refresh as the steps on the input; a scanned page's refresh is a link that parses to itself; every issue of
/// the reader is inside the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    let text = FuzzInput.text(bytes)
    LinkWrapperFuzzer.checkDecoding(text)
    LinkWrapperFuzzer.checkRefresh(text, bytes: bytes)
    LinkWrapperFuzzer.checkReader(bytes)
    return 0
}

/// The checks of the wrappers target.
enum LinkWrapperFuzzer {
    static let catalog = LinkWrapperCatalog.builtIn
    static let page = try! Link("https://page.example/dir/page.html?q=1")

    /// The input as a link, and as the payload of each kind of wrapper (the prefix before it).
    static let wrapperPrefixes = [
        "", "https://eur01.safelinks.protection.outlook.com/?url=", "https://urldefense.com/v3/__",
        "https://urldefense.proofpoint.com/v2/url?u=", "https://secure-web.cisco.com/token/",
        "https://eu-west-1.protection.sophos.com/?u=", "https://www.google.com/url?q=&url=",
    ]

    static func checkDecoding(_ text: String) {
        fuzzExpect(!catalog.wrappers.isEmpty, "the built-in catalog did not load")
        for prefix in wrapperPrefixes {
            guard let link = try? Link(prefix + text) else { continue }
            let outcome = catalog.unwrap(link)
            let context = FuzzInput.preview(link.text)
            fuzzExpect(outcome == catalog.unwrap(link), "decoding is not deterministic: \(context)")
            fuzzExpect(outcome.steps.count <= LinkWrapperCatalog.maximumDepth, "past the depth limit: \(context)")
            var current = link
            for step in outcome.steps {
                fuzzExpect(step.from == current, "a step does not start where the last ended: \(context)")
                fuzzExpect(step.to.text.utf8.count <= Link.maximumLength, "a decoded link past the limit: \(context)")
                fuzzExpect(
                    (try? Link(step.to.text)) == step.to,
                    "a decoded link the parser does not give back: \(FuzzInput.preview(step.to.text))"
                )
                current = step.to
            }
            fuzzExpect(outcome.link == current, "the outcome is not the last step's link: \(context)")
            if let stop = outcome.stop {
                fuzzExpect(stop.link == current, "a stop at another link than the last: \(context)")
                fuzzExpect(stop.description.contains(stop.wrapper.name), "a stop that names no wrapper: \(context)")
            }
            let shallow = catalog.unwrap(link, maximumDepth: 1, maximumLength: 256)
            fuzzExpect(shallow.steps.count <= 1, "past a depth limit of 1: \(context)")
            fuzzExpect(
                shallow.link.text.utf8.count <= max(256, link.text.utf8.count),
                "past a length of 256: \(context)"
            )
        }
    }

    static func checkRefresh(_ text: String, bytes: [UInt8]) {
        let refresh = Refresh.parse(text, page: page)
        if let refresh {
            fuzzExpect(refresh.delay >= 0, "a negative delay: \(FuzzInput.preview(text))")
            if case .link(let link) = refresh.target {
                fuzzExpect((try? Link(link.text)) == link, "a refresh link the parser does not give back: \(link)")
            }
        }
        _ = Refresh.parse(headerValue: bytes, page: page)
        // The same content in a meta element, escaped as HTML writes it, gives the same refresh (a NUL would be
        // U+FFFD in an attribute, and CR LF one LF: both are left out of this check).
        if !text.unicodeScalars.contains(where: { $0 == "\0" || $0 == "\r" }), !text.isEmpty {
            let escaped = text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(
                of: "\"",
                with: "&quot;"
            )
            let html = "<!doctype html><title>x</title><meta http-equiv=\"refresh\" content=\"\(escaped)\">"
            let scanned = MetaRefreshScanner.firstRefresh(in: Array(html.utf8), page: page)
            fuzzExpect(
                scanned == refresh,
                "the meta element's refresh differs from the steps' on \(FuzzInput.preview(text)): \(String(describing: scanned)) / \(String(describing: refresh))"
            )
        }
        let page = MetaRefreshScanner.firstRefresh(in: bytes, page: Self.page, maximumBytes: 4096)
        if case .link(let link) = page?.target {
            fuzzExpect((try? Link(link.text)) == link, "a scanned refresh link the parser does not give back: \(link)")
        }
        let prefix = MetaRefreshScanner.firstRefresh(in: bytes.prefix(4096), page: Self.page)
        fuzzExpect(prefix == page, "the scanner read past its limit: \(FuzzInput.preview(text))")
    }

    static func checkReader(_ bytes: [UInt8]) {
        guard let read = try? WrapperCatalogReader(file: "fuzz.json").read(bytes) else { return }
        for issue in read.issues {
            fuzzExpect(
                (issue.position?.offset ?? 0) <= bytes.count,
                "an issue outside the input: \(issue)"
            )
        }
    }
}
