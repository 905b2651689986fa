import LinkRules
import LinkWrappers
import Testing

/// The user layer's `wrappers`, `disableWrappers` and `openWrapped`: entries read by the wrapper catalog's own reader,
/// every problem located in the layer file.
@Suite struct UserLayerWrapperTests {
    @Test func decodesWrappersDisabledWrappersAndOpenWrapped() throws {
        let loaded = try UserLayerLoader().load(
            #"""
            {"switchyardUserLayer": 1,
             "wrappers": [{"id": "corp", "name": "Corp link check", "hosts": ["*.corp.example"], "paths": ["/check/**"],
                           "decode": "base64", "parameters": ["t"]}],
             "disableWrappers": ["google", "youtube"],
             "openWrapped": true}
            """#,
            file: "layer.json"
        )
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        let wrapper = try #require(loaded.layer.wrappers.first)
        #expect(wrapper.id == "corp" && wrapper.name == "Corp link check")
        #expect(wrapper.decoding == .base64(parameter: "t"))
        #expect(wrapper.pointer == "/wrappers/0")
        #expect(loaded.layer.disabledWrappers.map(\.identifier) == ["google", "youtube"])
        #expect(loaded.layer.disabledWrappers.map(\.pointer) == ["/disableWrappers/0", "/disableWrappers/1"])
        #expect(loaded.layer.opensWrapped == true)
        #expect(try UserLayerLoader().load(#"{"switchyardUserLayer": 1}"#).layer.opensWrapped == nil)
    }

    @Test(arguments: [
        (
            #""wrappers": [{"id": "x", "name": "X", "hosts": ["x.example"], "paths": ["/"], "decode": "rot13"}]"#,
            "E_WRAPPER_DECODE", "/wrappers/0/decode", "3:89"
        ),
        (
            #""wrappers": [{"id": "x", "name": "X", "hosts": ["https://x.example"], "paths": ["/"], "decode": "opaque"}]"#,
            "E_PATTERN", "/wrappers/0/hosts/0", "3:49"
        ),
        (#""wrappers": {"id": "x"}"#, "E_TYPE", "/wrappers", "3:13"),
        (#""disableWrappers": ["google", ""]"#, "E_PATTERN", "/disableWrappers/1", "3:31"),
        (#""openWrapped": "yes""#, "E_TYPE", "/openWrapped", "3:16"),
    ])
    func eachProblemIsLocatedInTheLayerFile(
        _ member: String,
        _ code: String,
        _ pointer: String,
        _ place: String
    )
        throws
    {
        let loaded = try UserLayerLoader().load("{\n\"switchyardUserLayer\": 1,\n\(member)\n}", file: "layer.json")
        let diagnostic = try #require(loaded.diagnostics.first, "\(loaded.diagnostics)")
        #expect(diagnostic.code == code, "\(diagnostic)")
        #expect(diagnostic.pointer == pointer)
        #expect(diagnostic.description.hasPrefix("layer.json:\(place): "), "\(diagnostic)")
        #expect(loaded.layer.wrappers.isEmpty)
    }
}
