import DeeplinkTemplates
import Foundation
import Synchronization
import Testing

/// What handlers saw, in order: handlers are `@Sendable`, so they record through a lock rather than a captured `var`.
final class Recorder: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

struct TestData: Equatable, DefaultInitializable {
    var id: String?
    var text: String?
}

struct Artist: Equatable {
    var id: String?
    var slug: String?
}

struct Location: Equatable {
    var id: String?
    var slug: String?
    var period: String?
}

struct Event: Equatable {
    var id: String?
    var slug: String?
}

enum Section: String, DeeplinkArgument {
    case buy, sell
}

struct Typed: Equatable, DefaultInitializable {
    var id: Int?
    var uuid: UUID?
    var section: Section?
    var ids: [Int]?
    var flag: Bool?
    var rest: String?
    var query: String?
    var page: Int?
    var fragment: String?
}

func url(_ text: String) throws -> URL {
    try #require(URL(string: text))
}

@Suite struct DeeplinkTests {
    @Test(arguments: [
        "https://ticketswap.com/test/123/abc", "https://ticketswap.com/test/123/abc?some=else",
        "https://ticketswap.com/test/123/abc#fragment", "ticketswap:///test/123/abc#fragment",
    ])
    func extractsPathArgumentsFromEveryURLForm(link: String) throws {
        let template: Deeplink<TestData> = try "/test/\(\.id)/\(\.text)"
        var result = TestData(id: "", text: "")
        try template.parse(try url(link), into: &result)
        #expect(result == TestData(id: "123", text: "abc"))
    }

    @Test func voidTemplatesMatchLiterallyAndThrowOtherwise() throws {
        let sell: Deeplink<Void> = "/sell/ticket"
        try sell.parse(try url("https://ticketswap.com/sell/ticket"))
        #expect(throws: DeeplinkError.self) { try sell.parse(try url("https://ticketswap.com/sell/tickets")) }
        #expect(throws: DeeplinkError.self) { try sell.parse(try url("https://ticketswap.com/buy/ticket")) }
    }

    @Test func missingArgumentsAreEmptyAndUnmentionedPropertiesKeepTheirValue() throws {
        let template: Deeplink<TestData> = try "/test/\(\.id)/x"
        var result = TestData(id: "old", text: "untouched")
        try template.parse(try url("https://a.com/test//x"), into: &result)
        #expect(result == TestData(id: "", text: "untouched"))
    }

    @Test func literalMismatchSaysWhere() throws {
        let template: Deeplink<TestData> = try "/test/\(\.id)/detail"
        var result = TestData()
        do {
            try template.parse(try url("https://a.com/test/1/other"), into: &result)
            Issue.record("matched")
        } catch let error as DeeplinkError {
            #expect(error.code == .literalMismatch)
            #expect(error.message.contains("\"/detail\"") && error.message.contains("offset 7"))
        }
    }

    @Test func centerTriesTemplatesInOrder() throws {
        let center = DeeplinksCenter()
        let seen = Recorder()
        let artistDeeplink = try "/artist/\(\.slug)/\(\.id)" as Deeplink<Artist>
        let locationDeeplink = try "/location/\(\.slug)/\(\.id)/\(\.period)" as Deeplink<Location>
        let eventDeeplink = try "/event/\(\.slug)/\(\.id)" as Deeplink<Event>
        center.register(deeplink: artistDeeplink, assigningTo: Artist()) { _, artist in
            seen.append("artist \(artist.id ?? "")")
            return true
        }
        .register(deeplink: locationDeeplink, assigningTo: Location()) { _, location in
            seen.append("location \(location.id ?? "") \(location.period ?? "")")
            return true
        }
        .register(deeplink: eventDeeplink, assigningTo: Event()) { _, event in
            seen.append("event \(event.slug ?? "") \(event.id ?? "")")
            return true
        }
        try center.parse(url: try url("https://ticketswap.com/artist/metallica/123456"))
        try center.parse(url: try url("https://ticketswap.com/location/amsterdam/1234567/24-06-2019"))
        try center.parse(url: try url("https://ticketswap.com/event/awakenings/123"))
        #expect(seen.all == ["artist 123456", "location 1234567 24-06-2019", "event awakenings 123"])
        #expect(throws: DeeplinkError.self) { try center.parse(url: try url("https://ticketswap.com/nothing")) }
    }

    @Test func aDecliningHandlerLetsTheNextTemplateTry() throws {
        let handled = Recorder()
        let generic = try "/item/\(\.id)" as Deeplink<TestData>
        let center = DeeplinksCenter()
            .register(deeplink: generic, assigningTo: TestData()) { _, value in
                handled.append("first")
                return value.id == "special"
            }
            .register(deeplink: generic, assigningTo: TestData()) { _, _ in
                handled.append("second")
                return true
            }
        try center.parse(url: try url("https://a.com/item/7"))
        #expect(handled.all == ["first", "second"])
    }

    @Test func resultBuilderDeclaresACenter() throws {
        struct Other {
            var arg1: String?
            var arg2: String?
        }
        let calls = Recorder()
        let link1 = "/test/1" as Deeplink<Void>
        let link2 = try "/test/\(\.id)/\(\.text)" as Deeplink<TestData>
        let link3 = try "/test2/\(\.arg1)/\(\.arg2)" as Deeplink<Other>
        let center = DeeplinksCenter {
            link1 { url in
                calls.append(url.absoluteString)
                return true
            }
            link2 { _, value in
                calls.append("\(value.id ?? "")\(value.text ?? "")")
                return true
            }
            link3(assigningTo: Other(arg1: "default", arg2: "default")) { _, value in
                calls.append("\(value.arg1 ?? "")-\(value.arg2 ?? "")")
                return true
            }
        }
        try center.parse(url: try url("https://apple.com/test/1"))
        try center.parse(url: try url("https://apple.com/test/a/b"))
        try center.parse(url: try url("https://apple.com/test2/a/b"))
        #expect(calls.all == ["https://apple.com/test/1", "ab", "a-b"])
    }

    @Test func aCenterIsSharedBetweenTasks() async throws {
        let center = DeeplinksCenter()
        let seen = Recorder()
        center.register(deeplink: try "/item/\(\.id)" as Deeplink<TestData>, assigningTo: TestData()) { _, value in
            seen.append(value.id ?? "")
            return true
        }
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask {
                    // Registering while others parse: the later template never shadows the first.
                    if index % 10 == 0 {
                        center.register(deeplink: Deeplink<Void>(stringLiteral: "/other/\(index)")) { _ in true }
                    }
                    _ = try? center.parse(url: URL(string: "https://a.com/item/\(index)") ?? URL(fileURLWithPath: "/"))
                }
            }
        }
        #expect(Set(seen.all) == Set((0..<50).map(String.init)))
    }

    @Test func templatesCanMatchTheQueryByNameAndTheFragment() throws {
        let template: Deeplink<Typed> = try "/search?q=\(\.query)&page=\(\.page)#\(\.fragment)"
        var value = Typed()
        try template.parse(try url("https://a.com/search?page=2&utm=x&q=caf%C3%A9#results"), into: &value)
        #expect(value.query == "café" && value.page == 2 && value.fragment == "results")
        do {
            try template.parse(try url("https://a.com/search?q=x#r"), into: &value)
            Issue.record("matched without page")
        } catch let error as DeeplinkError {
            #expect(error.code == .missingParameter)
            #expect(error.message.contains("\"page\""))
        }
    }

    @Test func typedArgumentsListsAndCatchAll() throws {
        let uuid = UUID()
        let template: Deeplink<Typed> = try "/\(\.section)/\(\.id)/\(\.uuid)/ids/\(list: \.ids)/files/\(rest: \.rest)"
        var value = Typed()
        try template.parse(try url("https://a.com/buy/42/\(uuid.uuidString)/ids/1,2,3/files/a/b/c.txt"), into: &value)
        #expect(
            value.section == .buy && value.id == 42 && value.uuid == uuid && value.ids == [1, 2, 3]
                && value.rest == "a/b/c.txt"
        )
        #expect(throws: DeeplinkError.self) {
            try template.parse(try url("https://a.com/rent/42/\(uuid.uuidString)/ids/1/files/x"), into: &value)
        }
        #expect(throws: DeeplinkError.self) {
            try template.parse(try url("https://a.com/buy/forty/\(uuid.uuidString)/ids/1/files/x"), into: &value)
        }
    }

    @Test(arguments: [("true", true), ("TRUE", true), ("1", true), ("false", false), ("False", false), ("0", false)])
    func booleanSpellingsAreOneDocumentedSet(text: String, expected: Bool) throws {
        let template: Deeplink<Typed> = try "/flag/\(\.flag)"
        var value = Typed()
        try template.parse(try url("https://a.com/flag/\(text)"), into: &value)
        #expect(value.flag == expected)
    }

    @Test func otherBooleanSpellingsAreInvalid() throws {
        let template: Deeplink<Typed> = try "/flag/\(\.flag)"
        var value = Typed()
        for text in ["yes", "on", "maybe", "2", "", "TRUE%3F"] {
            #expect(throws: DeeplinkError.self) {
                try template.parse(try url("https://a.com/flag/\(text)"), into: &value)
            }
        }
    }

    @Test func adjacentArgumentsFailAtCreation() {
        #expect(throws: DeeplinkError.self) { let _: Deeplink<TestData> = try "/x/\(\.id)\(\.text)" }
    }

    @Test func schemeAndHostScoping() throws {
        let template = (try "/item/\(\.id)" as Deeplink<TestData>).scoped(scheme: "myapp", host: "")
        var value = TestData()
        try template.parse(try url("myapp:///item/1"), into: &value)
        #expect(value.id == "1")
        do {
            try template.parse(try url("https://a.com/item/1"), into: &value)
            Issue.record("matched another scheme")
        } catch let error as DeeplinkError {
            #expect(error.code == .wrongScope)
        }
    }

    @Test func encodingIsTheInverseOfParsing() throws {
        let template: Deeplink<Typed> = try "/\(\.section)/\(\.id)?q=\(\.query)"
        let original = Typed(id: 7, section: .sell, query: "a b&c=d/é")
        let text = template.url(for: original, scheme: "https", host: "a.com")
        #expect(text == "https://a.com/sell/7?q=a%20b%26c%3Dd%2F%C3%A9")
        var parsed = Typed()
        try template.parse(try url(text), into: &parsed)
        #expect(parsed == original)
    }

    @Test func parsingIsUsableFromAnyTask() async throws {
        let template: Deeplink<TestData> = try "/test/\(\.id)"
        let values = await withTaskGroup(of: String?.self) { group in
            for index in 0..<50 {
                group.addTask {
                    var value = TestData()
                    try? template.parse(
                        URL(string: "https://a.com/test/\(index)") ?? URL(fileURLWithPath: "/"),
                        into: &value
                    )
                    return value.id
                }
            }
            return await group.reduce(into: Set<String>()) { if let id = $1 { $0.insert(id) } }
        }
        #expect(values.count == 50)
    }
}
