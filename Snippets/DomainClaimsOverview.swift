// The program of DomainClaims' overview, which shows it slice by slice. `swift build` builds it, and
// SwitchyardCLITests runs it: its output must be exactly the `// → ` lines, in order.

// snippet.decide
import DomainClaims

// A site's apple-app-site-association file, as served.
let file = try AppSiteAssociation(
    bytes: Array(
        #"""
        {"applinks": {
           "substitutionVariables": {"food": ["burrito", "pizza"]},
           "details": [{
             "appIDs": ["ABCDE12345.com.example.app"],
             "components": [
               {"#": "no_universal_links", "exclude": true},
               {"/": "/buy/*"},
               {"/": "/help/*", "?": {"articleNumber": "????"}},
               {"/": "/menu/$(food)/*"}]}]}}
        """#.utf8
    )
)
let app = "ABCDE12345.com.example.app"
for url in [
    "https://example.com/buy/42", "https://example.com/buy/42#no_universal_links",
    "https://example.com/help/kb?articleNumber=12", "https://example.com/menu/pizza/large",
] {
    let decision = file.decision(for: app, url: url, domain: "example.com")
    print(decision.outcome.rawValue, decision.rule?.description ?? "-")
}
// → match /applinks/details/0/components/1
// → exclude /applinks/details/0/components/0
// → no_match -
// → match /applinks/details/0/components/3
// snippet.end

// snippet.assetlinks
// Does example.com let the Android app com.example open its links? Files are given here; the API is the same when
// a source fetches them.
let fingerprint = "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"
let statements = """
    [{"relation": ["delegate_permission/common.handle_all_urls"],
      "target": {"namespace": "android_app", "package_name": "com.example", "sha256_cert_fingerprints": ["\(fingerprint)"]}}]
    """
if let source = AssetSite("https://example.com"), let certificate = CertificateFingerprint(fingerprint) {
    let answer = AssetLinksChecker.check(
        AssetLinksQuery(
            source: source,
            relation: AssetRelation.handleAllURLs,
            target: .androidApp(packageName: "com.example", fingerprint: certificate)
        ),
        files: AssetLinksFiles([source.statementListURL: statements])
    )
    print(answer.outcome.rawValue, answer.linked)
}
// → success true
// snippet.end
