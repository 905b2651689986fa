import Foundation
import SwitchyardTestSupport
import Testing

@testable import LinkRules

/// `Docs/user-layer.schema.json` and `Docs/UserLayer.md` against the decoder: every example in the reference decodes
/// without a diagnostic, the schema names exactly the keys the decoder knows, and (when python3 has `jsonschema`)
/// the schema accepts every example and refuses a wrong one.
@Suite struct UserLayerSchemaTests {
    static let docs = SharedData.packageRoot.appendingPathComponent("Docs")

    /// The JSON examples of the reference that are layers.
    static func examples() throws -> [String] {
        let text = try String(contentsOf: docs.appendingPathComponent("UserLayer.md"), encoding: .utf8)
        return text.components(separatedBy: "```json\n").dropFirst().compactMap { block in
            let example = block.components(separatedBy: "```").first ?? ""
            return example.contains("switchyardUserLayer") ? example : nil
        }
    }

    static func schema() throws -> [String: Any] {
        let data = try Data(contentsOf: docs.appendingPathComponent("user-layer.schema.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func keys(_ object: Any?) -> Set<String> {
        Set(((object as? [String: Any])?["properties"] as? [String: Any])?.keys ?? [:].keys)
    }

    @Test func everyExampleOfTheReferenceDecodesWithoutADiagnostic() throws {
        let examples = try Self.examples()
        #expect(examples.count >= 2)
        for example in examples {
            let loaded = try UserLayerLoader().load(example, file: "UserLayer.md")
            #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        }
    }

    @Test func theSchemaNamesTheKeysTheDecoderKnows() throws {
        let schema = try Self.schema()
        let properties = try #require(schema["properties"] as? [String: Any])
        #expect(Set(properties.keys) == UserLayer.keys)
        let sites = (properties["sites"] as? [String: Any])?["items"]
        #expect(Self.keys(sites) == SiteRule.keys)
        #expect(Self.keys((properties["when"] as? [String: Any])?["items"]) == LayerCondition.keys)
        let definitions = try #require(schema["$defs"] as? [String: Any])
        let references = (definitions["references"] as? [String: Any])?["items"] as? [String: Any]
        let forms = try #require(references?["oneOf"] as? [Any])
        #expect(forms.reduce(into: Set<String>()) { $0.formUnion(Self.keys($1)) } == ManifestDecoder.referenceKeys)
    }

    /// The schema's verdict on each document: nil when valid, else the first error's message.
    static func validate(_ documents: [String]) throws -> [String?] {
        try JSONSchemaCheck.validate(documents, schema: docs.appendingPathComponent("user-layer.schema.json"))
    }

    @Test(.enabled(if: JSONSchemaCheck.validator != nil, JSONSchemaCheck.skipReason))
    func theSchemaAcceptsTheExamplesAndRefusesAWrongLayer() throws {
        let examples = try Self.examples()
        #expect(try Self.validate(examples) == examples.map { _ in nil })
        let wrong = [
            #"{"switchyardUserLayer": 2}"#, #"{"switchyardUserLayer": 1, "disabel": []}"#,
            #"{"switchyardUserLayer": 1, "sites": [{"hosts": ["https://a.example/"]}]}"#,
            #"{"switchyardUserLayer": 1, "when": [{"browserOnly": true}]}"#,
            #"{"switchyardUserLayer": 1, "disable": [{"app": "a", "browser": "b"}]}"#,
        ]
        #expect(try Self.validate(wrong).allSatisfy { $0 != nil })
        for text in wrong.dropFirst() {
            let loaded = try UserLayerLoader().load(text)
            #expect(!loaded.diagnostics.isEmpty, "the decoder also flags \(text)")
        }
    }
}
