import DevicePrediction
import Foundation
import SwitchyardTestSupport
import Testing
import WebLinks

/// `Docs/device.schema.json` against the reader: every key the schema names is one the reader reads (a value of the
/// wrong type there is refused at its pointer), and (when python3 has `jsonschema`) the schema accepts every device
/// file of the case table and the documentation's, and refuses wrong ones the reader refuses too.
@Suite struct DeviceSchemaTests {
    static let schemaURL = SharedData.packageRoot.appendingPathComponent("Docs/device.schema.json")

    static func schema() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: schemaURL)) as? [String: Any])
    }

    static func keys(_ definition: Any?) -> [String] {
        (((definition as? [String: Any])?["properties"] as? [String: Any])?.keys.map { $0 } ?? [])
            .filter { $0 != "platform" && $0 != "$schema" }.sorted()
    }

    /// Each object of the schema: its definition, and a device in which a member of it goes where `KEY` is.
    static func places() throws -> [(definition: Any?, template: String, pointer: String)] {
        let definitions = try #require(try schema()["$defs"] as? [String: Any])
        let ios = definitions["ios"] as? [String: Any]
        let iosProperties = ios?["properties"] as? [String: Any]
        let iosApp = (iosProperties?["apps"] as? [String: Any])?["items"]
        // tappedIn is its kind alone, or an object.
        let tappedIn = ((iosProperties?["tappedIn"] as? [String: Any])?["oneOf"] as? [Any])?.last
        return [
            (definitions["android"], #"{"platform":"android",KEY}"#, "/KEY"),
            (definitions["androidApp"], #"{"platform":"android","apps":[{"package":"com.a",KEY}]}"#, "/apps/0/KEY"),
            (
                definitions["intentFilter"], #"{"platform":"android","apps":[{"package":"com.a","filters":[{KEY}]}]}"#,
                "/apps/0/filters/0/KEY"
            ),
            (ios, #"{"platform":"ios",KEY}"#, "/KEY"),
            (iosApp, #"{"platform":"ios","apps":[{"appId":"A.b",KEY}]}"#, "/apps/0/KEY"),
            (tappedIn, #"{"platform":"ios","tappedIn":{"kind":"safari",KEY}}"#, "/tappedIn/KEY"),
        ]
    }

    @Test func everyKeyOfTheSchemaIsReadAndTyped() throws {
        var checked = 0
        for place in try Self.places() {
            let keys = Self.keys(place.definition)
            #expect(!keys.isEmpty)
            for key in keys {
                // 12.5 is no boolean, string, list, object, file or whole number.
                // An app's ID is read from appId, else from appID: each alone.
                let template = key.lowercased() == "appid" ? #"{"platform":"ios","apps":[{KEY}]}"# : place.template
                let text = template.replacingOccurrences(of: "KEY", with: #""\#(key)":12.5"#)
                do {
                    _ = try Device(bytes: Array(text.utf8))
                    Issue.record("\(key) of the schema is not read: \(text)")
                } catch {
                    #expect(
                        error.pointer?.description == place.pointer.replacingOccurrences(of: "KEY", with: key),
                        "\(text): \(error)"
                    )
                }
                checked += 1
            }
        }
        #expect(checked >= 30)
    }

    /// The device files the project shows: the case table's and the command-line page's.
    static func documents() throws -> [String] {
        let page = try String(
            contentsOf: SharedData.packageRoot.appendingPathComponent("Docs/CommandLine.md"),
            encoding: .utf8
        )
        let heredocs = page.components(separatedBy: "<<'END'\n").dropFirst().compactMap {
            $0.components(separatedBy: "\nEND").first
        }
        let unknownKeys = ["unknown keys are ignored"]
        return PredictionCases.all.filter { testCase in !unknownKeys.contains { testCase.name.contains($0) } }.map(
            \.deviceFile
        )
            + heredocs.filter { $0.contains("\"platform\"") }
    }

    @Test(.enabled(if: JSONSchemaCheck.validator != nil, JSONSchemaCheck.skipReason))
    func theSchemaAcceptsTheDevicesAndRefusesWrongOnes() throws {
        let documents = try Self.documents()
        #expect(documents.count > PredictionCases.all.count - 3)
        let verdicts = try JSONSchemaCheck.validate(documents, schema: Self.schemaURL)
        for (document, verdict) in zip(documents, verdicts) {
            #expect(verdict == nil, "\(document): \(verdict ?? "")")
        }
        let wrong = [
            #"{"platform":"windows"}"#, #"{"platform":"android","apps":[{"package":"com.a","enabled":"yes"}]}"#,
            #"{"platform":"android","apps":[{"package":"com.a","filters":[{"hosts":["https://a.example/"]}]}]}"#,
            #"{"platform":"ios","tappedIn":{"kind":"dock"}}"#, #"{"platform":"ios","tappedIn":{"kind":"safari"}}"#,
            #"{"platform":"android","sdk":30}"#,
            #"{"platform":"android","apps":[{"package":"com.a","fingerprints":["ab"]}]}"#,
        ]
        #expect(try JSONSchemaCheck.validate(wrong, schema: Self.schemaURL).allSatisfy { $0 != nil })
        for text in wrong {
            #expect(throws: PredictionError.self, "the reader refuses \(text) too") {
                try Device(bytes: Array(text.utf8))
            }
        }
    }
}
