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

/// A query parameter's name may be an argument: such pairs are matched by position among the link's pairs, while
/// pairs with a literal name are still found by name, in any order.
@Suite struct QueryNameArgumentTests {
    @Test(arguments: [
        ("https://apple.com/test?a=1&b=2&c=3", Args(arg1: "1", arg2: "b")),
        ("https://apple.com/test?a=1&other=2&c=3#top", Args(arg1: "1", arg2: "other")),
        ("https://apple.com/test?c=3&b=2&a=1", Args(arg1: "1", arg2: "b")),
        ("myapp://test?a=%C3%A9&caf%C3%A9=2&c=3", Args(arg1: "é", arg2: "café")),
    ])
    func anArgumentNameTakesThePairAtItsPosition(link: String, expected: Args) throws {
        let template: Deeplink<Args> = try "/test?a=\(\.arg1)&\(\.arg2)=2&c=3"
        var value = Args()
        try template.parse(try url(link), into: &value)
        #expect(value == expected)
    }

    @Test(arguments: [
        ("https://apple.com/test?a=1&b=3&c=3", DeeplinkError.Code.literalMismatch),
        ("https://apple.com/test?a=1", .missingParameter),
        ("https://apple.com/test?a=1&b=2", .missingParameter),
    ])
    func aPairAtItsPositionMustMatchTheRestOfTheTemplate(link: String, code: DeeplinkError.Code) throws {
        let template: Deeplink<Args> = try "/test?a=\(\.arg1)&\(\.arg2)=2&c=3"
        var value = Args()
        let error = #expect(throws: DeeplinkError.self) { try template.parse(try url(link), into: &value) }
        #expect(error?.code == code)
    }

    @Test(arguments: [
        ("https://apple.com/test?key=value", Args(arg1: "key", arg2: "value")),
        ("https://apple.com/test?key=value&other=1", Args(arg1: "key", arg2: "value")),
        ("https://apple.com/test?=value", Args(arg1: "", arg2: "value")),
        ("https://apple.com/test?key=", Args(arg1: "key", arg2: "")),
        ("https://apple.com/test?a%20b=c%26d", Args(arg1: "a b", arg2: "c&d")),
    ])
    func aWholePairCanBeArguments(link: String, expected: Args) throws {
        let template: Deeplink<Args> = try "/test?\(\.arg1)=\(\.arg2)"
        var value = Args()
        try template.parse(try url(link), into: &value)
        #expect(value == expected)
    }

    @Test(arguments: [("https://apple.com/test?a=1&=test", ""), ("https://apple.com/test?a=1&name=", "name")])
    func anEmptyNameIsAValue(link: String, name: String) throws {
        let template: Deeplink<Args> = try "/test?a=1&\(\.arg1)="
        var value = Args()
        try template.parse(try url(link), into: &value)
        #expect(value.arg1 == name)
    }

    @Test func aMissingPairNamesTheArgument() throws {
        let template: Deeplink<Args> = try "/test?a=1&\(\.arg1)="
        var value = Args()
        do {
            try template.parse(try url("https://apple.com/test?a=1"), into: &value)
            Issue.record("matched without a second pair")
        } catch let error as DeeplinkError {
            #expect(error.code == .missingParameter)
            #expect(error.message.contains("{arg1}") && error.message.contains("position 2"))
        }
    }

    @Test(arguments: [
        "https://apple.com/test?ref=abc", "https://apple.com/test?x=1&ref", "https://apple.com/test?ref=",
    ])
    func aPairWithNoValueInTheTemplateAsksOnlyForThePair(link: String) throws {
        let template: Deeplink<Void> = "/test?ref="
        try template.parse(try url(link))
        #expect(throws: DeeplinkError.self) { try template.parse(try url("https://apple.com/test?x=ref")) }
    }

    @Test(arguments: [Args(arg1: "key", arg2: "value"), Args(arg1: "a b&c=d", arg2: "é/?#"), Args(arg1: "", arg2: "")])
    func queryNameArgumentsParseBackFromTheURLTheyBuild(original: Args) throws {
        let template: Deeplink<Args> = try "/test?a=1&\(\.arg1)=\(\.arg2)#x"
        let built = template.url(for: original, scheme: "https", host: "apple.com")
        var parsed = Args()
        try template.parse(try url(built), into: &parsed)
        #expect(parsed == original, "\(built)")
    }
}

/// A template's fragment is part of it: a link without `#` does not match a template with one, and likewise a
/// template's `?` needs a query in the link.
@Suite struct FragmentTests {
    @Test(arguments: [
        ("https://apple.com/test#abc", "abc"), ("https://apple.com/test#", ""),
        ("https://apple.com/test?x=1#a%20b", "a b"),
    ])
    func aFragmentArgumentTakesTheFragment(link: String, expected: String) throws {
        let template: Deeplink<Args> = try "/test#\(\.arg1)"
        var value = Args()
        try template.parse(try url(link), into: &value)
        #expect(value.arg1 == expected)
    }

    @Test(arguments: ["https://apple.com/test", "https://apple.com/test?x=1", "myapp://test", "ftp://apple.com/test/"])
    func aLinkWithoutAFragmentDoesNotMatchATemplateWithOne(link: String) throws {
        let withArgument: Deeplink<Args> = try "/test#\(\.arg1)"
        let literal: Deeplink<Void> = "/test#top"
        var value = Args(arg1: "kept")
        let error = #expect(throws: DeeplinkError.self) { try withArgument.parse(try url(link), into: &value) }
        #expect(error?.code == .literalMismatch)
        #expect(value.arg1 == "kept")
        #expect(throws: DeeplinkError.self) { try literal.parse(try url(link)) }
    }

    @Test func aTemplateWithoutAFragmentIgnoresTheLinks() throws {
        let template: Deeplink<Void> = "/test"
        try template.parse(try url("https://apple.com/test#anything"))
    }

    @Test func aTemplatesQueryMarkNeedsAQuery() throws {
        let template: Deeplink<Void> = "/test?"
        try template.parse(try url("https://apple.com/test?"))
        try template.parse(try url("https://apple.com/test?a=1"))
        #expect(throws: DeeplinkError.self) { try template.parse(try url("https://apple.com/test")) }
    }
}

/// A template refused when it is created, with the code and the message that names the argument.
struct RefusedTemplate: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let make: @Sendable () throws -> Void
}

/// Properties a list or repeated-argument template writes.
struct Lists: Equatable, DefaultInitializable {
    var ids: [Int]?
    var names: [String]?
    var ratios: [Double]?
    var id: Int?
}

/// One argument, one place: a template that binds a property twice is refused when it is created.
@Suite struct RepeatedArgumentTests {
    static let refused: [RefusedTemplate] = [
        RefusedTemplate(testDescription: "/{arg1}#{arg1}") { let _: Deeplink<Args> = try "/\(\.arg1)#\(\.arg1)" },
        RefusedTemplate(testDescription: "/{arg1}/x/{arg1}") { let _: Deeplink<Args> = try "/\(\.arg1)/x/\(\.arg1)" },
        RefusedTemplate(testDescription: "?a={arg1}&b={arg1}") {
            let _: Deeplink<Args> = try "/t?a=\(\.arg1)&b=\(\.arg1)"
        },
        RefusedTemplate(testDescription: "?{arg1}={arg1}") { let _: Deeplink<Args> = try "/t?\(\.arg1)=\(\.arg1)" },
        RefusedTemplate(testDescription: "/{arg1}/{arg1|rest}") {
            let _: Deeplink<Args> = try "/\(\.arg1)/\(rest: \.arg1)"
        },
        RefusedTemplate(testDescription: "/{ids|list:,}/{ids|list:,}") {
            let _: Deeplink<Lists> = try "/\(list: \.ids)/\(list: \.ids)"
        },
        RefusedTemplate(testDescription: "/{ids|list:,}#{ids|list:;}") {
            let _: Deeplink<Lists> = try "/\(list: \.ids, separator: ",")#\(list: \.ids, separator: ";")"
        },
        RefusedTemplate(testDescription: "/{ids}/{id}?x={ids}") {
            let _: Deeplink<Lists> = try "/\(list: \.ids)/\(\.id)?x=\(list: \.ids)"
        },
    ]

    @Test(arguments: refused)
    func aPropertyBoundTwiceIsRefusedAtCreation(template: RefusedTemplate) throws {
        do {
            try template.make()
            Issue.record("created")
        } catch let error as DeeplinkError {
            #expect(error.code == .repeatedArgument)
            #expect(error.message.contains("{arg1}") || error.message.contains("{ids}"))
        }
    }

    @Test func differentPropertiesWithTheSameTextAreFine() throws {
        let template: Deeplink<Args> = try "/\(\.arg1)/x/\(\.arg2)#y"
        var value = Args()
        try template.parse(try url("https://apple.com/a/x/b#y"), into: &value)
        #expect(value == Args(arg1: "a", arg2: "b"))
    }
}

/// Building a URL keeps a list's separator as the template declares it; the items are still escaped.
@Suite struct ListEncodingTests {
    @Test func aDeclaredSeparatorIsWrittenLiterally() throws {
        let template: Deeplink<Lists> = try "/restaurants/ids=\(list: \.ids, separator: ",")"
        let built = template.url(for: Lists(ids: [123, 456, 789]), scheme: "https", host: "example.com")
        #expect(built == "https://example.com/restaurants/ids=123,456,789")
    }

    @Test(arguments: [
        (",", ["a", "b c"], "/n/a,b%20c"), (";", ["a;b", "c"], "/n/a%3Bb;c"), (",", ["a,b", "%"], "/n/a%2Cb,%25"),
        ("|", ["a", "b"], "/n/a%7Cb"), ("/", ["a", "b"], "/n/a%2Fb"), ("--", ["a-b", "c"], "/n/a%2Db--c"),
        (",", [], "/n/"),
    ])
    func itemsAreEscapedAndParseBack(separator: String, names: [String], path: String) throws {
        let template: Deeplink<Lists> = try "/n/\(list: \.names, separator: separator)"
        let built = template.url(for: Lists(names: names), scheme: "https", host: "example.com")
        #expect(built == "https://example.com" + path)
        var parsed = Lists()
        try template.parse(try url(built), into: &parsed)
        #expect(parsed.names == names)
    }

    @Test func aSeparatorThatIsAlsoInTheItemsIsEscapedInside() throws {
        let template: Deeplink<Lists> = try "/r/\(list: \.ratios, separator: ".")?ids=\(list: \.ids, separator: ";")"
        let original = Lists(ids: [1, -2], ratios: [1.5, 2])
        let built = template.url(for: original, scheme: "https", host: "example.com")
        #expect(built == "https://example.com/r/1%2E5.2%2E0?ids=1;-2")
        var parsed = Lists()
        try template.parse(try url(built), into: &parsed)
        #expect(parsed == original)
    }

    @Test func anEscapedSeparatorInALinkIsPartOfAnItem() throws {
        let template: Deeplink<Lists> = try "/n/\(list: \.names)"
        var parsed = Lists()
        try template.parse(try url("https://example.com/n/a%2Cb,c"), into: &parsed)
        #expect(parsed.names == ["a,b", "c"])
    }
}
