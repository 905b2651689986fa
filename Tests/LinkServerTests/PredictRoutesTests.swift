import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SwitchyardTestSupport
import Testing

@testable import LinkServer

/// `POST /v1/predict`: the prediction document (valid against `/openapi.json`) for every case of the project's table,
/// a bad device refused with its pointer into the body, and, with `serve --claims`, an Android verification derived
/// from a loopback TLS stand-in's assetlinks.json.
@Suite(.serialized) struct PredictRoutesTests {
    /// The request body of a case: its link, its device, its files.
    static func body(_ testCase: PredictionCase) -> String {
        #"{"url":"\#(testCase.link)","device":\#(testCase.deviceFile)\#(testCase.files.map { #","files":\#($0)"# } ?? "")}"#
    }

    @Test func everyCaseIsPredictedAsDescribed() async throws {
        let server = try await OpenAPITests.server()
        try await server.application().test(.router) { client in
            let validator = SchemaValidator(specification: try await OpenAPITests.specification(client))
            for testCase in PredictionCases.all {
                try await client.execute(
                    uri: "/v1/predict",
                    method: .post,
                    body: ByteBuffer(string: Self.body(testCase))
                ) {
                    response in
                    #expect(response.status == .ok, "\(testCase.name): \(String(buffer: response.body))")
                    let document = try #require(try OpenAPITests.object(response.body) as? [String: Any])
                    #expect(validator.problems(document, against: ["$ref": "#/components/schemas/Prediction"]).isEmpty)
                    #expect(document["opens"] as? String == testCase.opens, "\(testCase.name)")
                    #expect(document["candidates"] as? [String] == testCase.candidates, "\(testCase.name)")
                }
            }
        }
    }

    @Test(arguments: [
        (
            #"{"url":"https://a.example/","device":{"platform":"android","apps":[{"package":"com.a","enabled":"no"}]}}"#,
            "/device/apps/0/enabled: expected true or false", "$.device.apps[0].enabled"
        ),
        (
            #"{"url":"https://a.example/","device":{"platform":"windows"}}"#,
            #"/device/platform: "windows" is not a platform"#, "$.device.platform"
        ),
        (
            #"{"url":"https://a.example/","device":{"platform":"ios","openInSafari":["a/b"]}}"#,
            #"/device/openInSafari/0: "a/b" is not a host"#, "$.device.openInSafari[0]"
        ),
        (
            #"{"url":"https://a.example/","device":{"platform":"ios"},"files":7}"#, "/files: expected an object",
            "$.files"
        ),
        (#"{"device":{"platform":"ios"}}"#, "add the link that is tapped", "$.url"),
        (#"{"url":"https://a.example/"}"#, "add the device", "$.device"),
        ("[]", "the body is an array, not an object", "$"),
    ])
    func aBadRequestIsRefusedWithItsPlace(_ body: String, _ message: String, _ path: String) async throws {
        let server = try await OpenAPITests.server()
        try await server.application().test(.router) { client in
            try await client.execute(uri: "/v1/predict", method: .post, body: ByteBuffer(string: body)) { response in
                #expect(response.status == .badRequest)
                let document = try #require(try OpenAPITests.object(response.body) as? [String: Any])
                let error = try #require(document["error"] as? [String: Any])
                #expect((error["message"] as? String)?.hasPrefix(message) == true, "\(error)")
                #expect(error["path"] as? String == path)
            }
        }
    }

    @Test func withClaimsTheVerificationIsDerivedFromTheServedFile() async throws {
        let site = try await ClaimsTestSite.start()
        defer { Task { await site.stop() } }
        let device = #"""
            {"platform":"android","apps":[{"package":"\#(ClaimsTestSite.package)","isBrowser":false,"fingerprints":["\#(ClaimsTestSite.fingerprint)"],
              "filters":[{"actions":["VIEW"],"categories":["BROWSABLE","DEFAULT"],"schemes":["https"],"hosts":["example.com"],"autoVerify":true}]},
             {"package":"com.browser","isBrowser":true}]}
            """#
        try await ClaimsRoutesTests.server(site: site).application().test(.router) { client in
            for (path, opens) in [(ClaimsTestSite.assetLinks, ClaimsTestSite.package), ("[]", "browser")] {
                site.serve(ClaimsTestSite.assetLinksPath, .json(path, cacheControl: "no-store"))
                let body = #"{"url":"https://example.com/buy/\#(opens.count)","device":\#(device)}"#
                try await client.execute(uri: "/v1/predict", method: .post, body: ByteBuffer(string: body)) {
                    response in
                    let document = try #require(try OpenAPITests.object(response.body) as? [String: Any])
                    #expect(document["opens"] as? String == opens, "\(document)")
                }
            }
        }
    }
}
