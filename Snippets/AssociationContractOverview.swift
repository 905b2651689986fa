// The program of AssociationContract's overview, which shows it slice by slice. `swift build` builds it, and
// SwitchyardCLITests runs it: its output must be exactly the `// → ` lines, in order.

// snippet.contract
import AssociationContract
import DeeplinkTemplates
import DomainClaims

// The app's routes: DeeplinkTemplates templates (with a value each) or their text.
struct Artist: Sendable {
    var slug: String?
    var id: Int?
}
let contract = AssociationContract(
    appID: "ABCDE12345.com.example.app",
    domain: "example.com",
    routes: [
        AssociationRoute(try "/artist/\(\.slug)/\(\.id)" as Deeplink<Artist>, example: Artist(slug: "muse", id: 7)),
        try AssociationRoute("/sell/ticket"),
    ]
)
for component in contract.components() {
    print(component.path, component.isExact ? "exact" : "claims more")
}
// → /artist/*/* claims more
// → /sell/ticket exact
// snippet.end

// snippet.check
// In CI: the published file, checked against the routes both ways.
let published = try AppSiteAssociation(
    bytes: Array(
        #"{"applinks":{"details":[{"appIDs":["ABCDE12345.com.example.app"],"components":[{"/":"/artist/*/*"},{"/":"/help/*"}]}]}}"#
            .utf8
    )
)
for problem in contract.check(published) {
    print(problem)
}
// → the route /sell/ticket is not claimed: no component matches it (https://example.com/sell/ticket)
// → https://example.com/artist/x1/x1 is claimed by /applinks/details/0/components/0 but no route opens it
// → https://example.com/help/ is claimed by /applinks/details/0/components/1 but no route opens it
// → https://example.com/help/x1 is claimed by /applinks/details/0/components/1 but no route opens it
// snippet.end
