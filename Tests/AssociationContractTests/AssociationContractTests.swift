import AssociationContract
import DeeplinkTemplates
import DomainClaims
import Foundation
import Testing

/// The contract an iOS team runs in CI: the components written from the app's routes claim exactly what the routes
/// open (or say where AASA cannot), and a published file is checked against the routes both ways.
@Suite struct AssociationContractTests {
    struct Artist: Sendable {
        var slug: String?
        var id: Int?
    }

    static let app = "ABCDE12345.com.example.app"

    static func contract() throws -> AssociationContract {
        let artist = try "/artist/\(\.slug)/\(\.id)" as Deeplink<Artist>
        return AssociationContract(
            appID: app,
            domain: "example.com",
            routes: [
                AssociationRoute(artist, example: Artist(slug: "metallica", id: 42)),
                try AssociationRoute("/sell/ticket"),
                try AssociationRoute("/files/{path...}"),
                try AssociationRoute("/search?q={query}"),
            ]
        )
    }

    @Test func writesAComponentPerRoute() throws {
        let components = try Self.contract().components()
        #expect(components.map(\.path) == ["/artist/*/*", "/sell/ticket", "/files/*", "/search"])
        #expect(components.map(\.isExact) == [false, true, true, false])
        #expect(components[3].query == ["q": "*"])
        #expect(
            components.map(\.route) == ["/artist/{slug}/{id}", "/sell/ticket", "/files/{path...}", "/search?q={query}"]
        )
    }

    @Test func theGeneratedFileClaimsEveryRoute() throws {
        let contract = try Self.contract()
        let file = try AppSiteAssociation(bytes: Array(contract.associationFile().utf8))
        #expect(file.diagnostics.isEmpty)
        let problems = contract.check(file)
        #expect(!problems.contains { $0.kind == .routeNotClaimed }, "\(problems)")
        // What `*` claims beyond a segment argument shows up, as the components say.
        #expect(problems.contains { $0.kind == .claimNotRouted && $0.url.hasPrefix("https://example.com/artist/") })
    }

    @Test func findsARouteThePublishedFileDoesNotClaim() throws {
        let published =
            #"{"applinks":{"details":[{"appIDs":["\#(Self.app)"],"components":[{"/":"/sell/*","exclude":true},{"/":"/files/*"},{"/":"/artist/*"},{"/":"/search"}]}]}}"#
        let problems = try Self.contract().check(try AppSiteAssociation(bytes: Array(published.utf8)))
        let unclaimed = problems.filter { $0.kind == .routeNotClaimed }
        #expect(unclaimed.map(\.route) == ["/sell/ticket"])
        #expect(unclaimed.first?.description.contains("the exclusion at /applinks/details/0/components/0") == true)
    }

    @Test func findsAClaimNoRouteOpens() throws {
        let published = #"{"applinks":{"details":[{"appIDs":["\#(Self.app)"],"components":[{"/":"*"}]}]}}"#
        let problems = try Self.contract().check(try AppSiteAssociation(bytes: Array(published.utf8)))
        #expect(problems.contains { $0.kind == .claimNotRouted })
        #expect(!problems.contains { $0.kind == .routeNotClaimed })
    }

    @Test func writesAndroidIntentFilterPaths() throws {
        let paths = try Self.contract().intentFilterPaths()
        #expect(
            paths.map(\.attribute) == ["android:pathPattern", "android:path", "android:pathPrefix", "android:path"]
        )
        #expect(paths.map(\.value) == ["/artist/.*/.*", "/sell/ticket", "/files/", "/search"])
        #expect(
            paths[1].xml(host: "example.com")
                == #"<data android:scheme="https" android:host="example.com" android:path="/sell/ticket" />"#
        )
    }

    @Test(arguments: ["/x/{", "/x/{}", "/x/{a}{b}"])
    func refusesARouteItCannotRead(_ text: String) {
        #expect(throws: AssociationContractError.self) { try AssociationRoute(text) }
    }
}
