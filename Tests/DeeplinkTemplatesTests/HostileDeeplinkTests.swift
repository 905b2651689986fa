import DeeplinkTemplates
import Foundation
import SwitchyardTestSupport
import Testing

/// The `deeplink` cases of `../shared/data/bad-inputs.json`, read at test time.
@Suite struct HostileDeeplinkTests {
    static func input(_ id: String) throws -> (input: String, expect: [String: Any]) {
        let root = try #require(
            try JSONSerialization.jsonObject(with: try SharedData.data("bad-inputs.json")) as? [String: Any]
        )
        let cases = try #require(root["cases"] as? [[String: Any]])
        let entry = try #require(cases.first { $0["id"] as? String == id })
        return (try #require(entry["input"] as? String), try #require(entry["expect"] as? [String: Any]))
    }

    struct Item: DefaultInitializable {
        var id: String?
        var flag: Bool?
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func missingParameterIsNamedAndUnknownOnesAreIgnored() throws {
        let (input, _) = try Self.input("D02")
        let template: Deeplink<Item> = try "/item?id=\(\.id)"
        var value = Item()
        do {
            try template.parse(try #require(URL(string: input)), into: &value)
            Issue.record("matched without id")
        } catch let error as DeeplinkError {
            #expect(error.code == .missingParameter)
            #expect(error.message.contains("\"id\""))
        }
        try template.parse(try #require(URL(string: input + "&id=5")), into: &value)
        #expect(value.id == "5")
    }

    @Test(.enabled(if: SharedData.isAvailable, SharedData.skipReason))
    func booleanSpellingsFollowTheCatalogue() throws {
        let (_, expect) = try Self.input("D03")
        let template: Deeplink<Item> = try "/item?flag=\(\.flag)"
        for text in try #require(expect["accept"] as? [String]) {
            var value = Item()
            try template.parse(try #require(URL(string: "app1://item?flag=\(text)")), into: &value)
            #expect(value.flag == (text == "true" || text == "1"))
        }
        for text in try #require(expect["reject"] as? [String]) {
            var value = Item()
            let link = "app1://item?flag=" + (text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text)
            #expect(throws: DeeplinkError.self) { try template.parse(try #require(URL(string: link)), into: &value) }
        }
    }
}
