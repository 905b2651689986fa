// The program of LinkWrappers' overview, which shows it slice by slice. `swift build` builds it, and
// SwitchyardCLITests runs it: its output must be exactly the `// → ` lines, in order.

// snippet.unwrap
import LinkWrappers
import WebLinks

// A link as forwarded mail delivers it: Safe Links around Proofpoint URL Defense v3 around the link itself.
let wrapped = try Link(
    "https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Furldefense.com%2Fv3%2F__https%3A%2F%2Fexample.com%2Fa*b%3Fx%3D1**Ay__%3BI0BA!!X!Y%24&data=05%7C02&reserved=0"
)
let outcome = LinkWrapperCatalog.builtIn.unwrap(wrapped)
print(outcome.link)
// → https://example.com/a#b?x=1@@y
for step in outcome.steps { print(step.wrapper.name, "→", step.to.host) }
// → Microsoft Defender Safe Links → urldefense.com
// → Proofpoint URL Defense v3 → example.com

// A look-alike host is no wrapper; a malformed wrapper is left as it is, with the reason.
print(
    LinkWrapperCatalog.builtIn.unwrap(try Link("https://urldefense.com.example/v3/__https://example.com__;!!")).steps
        .count
)
// → 0
let broken = LinkWrapperCatalog.builtIn.unwrap(try Link("https://urldefense.com/v3/__https://example.com/a*__;!!x$"))
print(broken.stop?.description ?? "")
// → the link is a Proofpoint URL Defense v3 link, but a marker stands for a byte where its data has none left; it is resolved as it is
// snippet.end

// snippet.refresh
// The refresh of a bounce page, read as a browser reads it: only the first refresh that counts, outside comments.
let page = try Link("https://short.example/r/42")
let html = #"""
    <!-- <meta http-equiv="refresh" content="0;url=/old"> -->
    <meta http-equiv="Refresh" content="0; URL='https://example.com/landing?a=1&amp;b=2'">
    """#
if let refresh = MetaRefreshScanner.firstRefresh(in: Array(html.utf8), page: page) {
    print(refresh.delay, refresh.redirect(from: page, maximumDelay: 10)?.text ?? "not followed")
}
// → 0 https://example.com/landing?a=1&b=2
print(Refresh.parse("300; url=/later", page: page)?.redirect(from: page, maximumDelay: 10)?.text ?? "not followed")
// → not followed
// snippet.end
