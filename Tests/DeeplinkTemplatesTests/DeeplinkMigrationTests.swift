import DeeplinkTemplates
import Foundation
import Testing

/// The original library's argument type: two optional strings.
struct Args: Equatable, DefaultInitializable {
    var arg1: String?
    var arg2: String?
}

/// Links of the schemes the WHATWG URL Standard calls special have a host, exactly as `http` links do; only an app's
/// own scheme reads its "host" as the first segment of the route.
@Suite struct SpecialSchemeHostTests {
    @Test(arguments: [
        "http://apple.com/test", "https://apple.com/test", "ftp://apple.com/test", "ws://apple.com/test",
        "wss://apple.com:8443/test", "file://localhost/test", "file:///test", "FTP://Apple.com/test",
        "ftp://user:secret@apple.com/test", "wss://apple.com/test/", "ws://apple.com/test?x=1#y",
    ])
    func aSpecialSchemesHostIsNotPartOfThePath(link: String) throws {
        let template: Deeplink<Void> = "/test"
        try template.parse(try url(link))
    }

    @Test(arguments: ["ftp", "ws", "wss", "file", "http", "https"])
    func argumentsOfASpecialSchemeLinkStartAfterItsHost(scheme: String) throws {
        let template: Deeplink<Args> = try "/test/\(\.arg1)/\(\.arg2)"
        var value = Args()
        try template.parse(try url("\(scheme)://apple.com/test/a/b"), into: &value)
        #expect(value == Args(arg1: "a", arg2: "b"))
    }

    @Test func theHostOfASpecialSchemeIsNeverMatchedAsPath() throws {
        let template: Deeplink<Void> = "/apple.com/test"
        #expect(throws: DeeplinkError.self) { try template.parse(try url("ftp://apple.com/test")) }
    }

    @Test(arguments: [
        ("myapp://item/1", "/item/1"), ("myapp://item", "/item"), ("myapp:///item/1", "/item/1"),
        ("x-app://item/1?q=2", "/item/1"), ("ftps://item/1", "/item/1"),
    ])
    func anAppsOwnSchemeReadsItsHostAsTheFirstSegment(link: String, path: String) throws {
        let template = Deeplink<Void>(stringLiteral: path)
        try template.parse(try url(link))
    }

    @Test func aSpecialSchemesHostIsWhatAScopedTemplateCompares() throws {
        let template = (try "/test/\(\.arg1)" as Deeplink<Args>).scoped(scheme: "ftp", host: "apple.com")
        var value = Args()
        try template.parse(try url("ftp://Apple.com/test/1"), into: &value)
        #expect(value.arg1 == "1")
        #expect(throws: DeeplinkError.self) { try template.parse(try url("ftp://example.com/test/1"), into: &value) }
    }
}
