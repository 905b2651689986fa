import Foundation
import LinkRules
import Testing

/// Whole documents carry `"version"` first, in the layout the rest of the document has.
@Suite struct DocumentEncoderTests {
    struct Sample: Encodable {
        var url = "https://a.example/x"
        var count = 2
    }

    struct Empty: Encodable {}

    static let version = SwitchyardVersion.current

    @Test func compactDocumentsStartWithTheVersion() throws {
        let text = String(decoding: try DocumentEncoder.document(Sample()), as: UTF8.self)
        #expect(text == #"{"version":"\#(Self.version)","count":2,"url":"https://a.example/x"}"#)
        #expect(
            String(decoding: try DocumentEncoder.document(Empty()), as: UTF8.self) == #"{"version":"\#(Self.version)"}"#
        )
    }

    @Test func prettyDocumentsKeepTheirLayout() throws {
        let text = String(decoding: try DocumentEncoder.document(Sample(), pretty: true), as: UTF8.self)
        #expect(
            text == "{\n  \"version\" : \"\(Self.version)\",\n  \"count\" : 2,\n  \"url\" : \"https://a.example/x\"\n}"
        )
        let empty = String(decoding: try DocumentEncoder.document(Empty(), pretty: true), as: UTF8.self)
        #expect(empty == "{\n  \"version\" : \"\(Self.version)\"\n}")
        // Either way the result is the document plus the version.
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(parsed["version"] as? String == Self.version && parsed["count"] as? Int == 2)
    }

    @Test func onlyObjectsAreDocuments() {
        #expect(throws: EncodingError.self) { try DocumentEncoder.document([1, 2]) }
        #expect(throws: EncodingError.self) { try DocumentEncoder.document(Double.nan) }
    }

    @Test func theVersionIsSemantic() {
        let parts = Self.version.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil })
    }
}
