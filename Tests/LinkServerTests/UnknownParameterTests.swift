import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinkServer
import SwitchyardTestSupport
import Testing

/// What the API does not take is said, never ignored: an unknown query parameter or body field is `400` naming it
/// with the closest known name, and a link cut by an unencoded `&` gets a notice naming what was left out of it.
@Suite struct UnknownParameterTests {
    static func error(_ buffer: ByteBuffer) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any]
        return try #require(object?["error"] as? [String: Any])
    }

    @Test(arguments: [
        (
            "/v1/resolve?url=https://twitter.com/jack&platfrom=phone",
            #"the query has no parameter "platfrom"; did you mean "platform"?"#
        ),
        (
            "/v1/explain?platfrom=phone&url=https://twitter.com/jack",
            #"the query has no parameter "platfrom"; did you mean "platform"?"#
        ),
        (
            "/v1/resolve?url=https://twitter.com/jack&instaled=x",
            #"the query has no parameter "instaled"; did you mean "installed"?"#
        ),
        (
            "/v1/choose?type=maps&action=search&parm=query%3Dx",
            #"the query has no parameter "parm"; did you mean "param"?"#
        ),
        (
            "/v1/choose?type=maps&action=search&zzzzzz=1",
            #"the query has no parameter "zzzzzz" (the parameters: action, installed, param, type)"#
        ),
    ])
    func anUnknownParameterIsRefusedByName(uri: String, message: String) async throws {
        let app = try await ServerRoutesTests.server().application()
        try await app.test(.router) { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .badRequest)
                let error = try Self.error(response.body)
                #expect(error["code"] as? String == "E_UNKNOWN_PARAMETER")
                #expect(error["message"] as? String == message)
            }
        }
    }

    @Test func aLinkCutByAnUnencodedAmpersandGetsANotice() async throws {
        let app = try await ServerRoutesTests.server().application()
        try await app.test(.router) { client in
            try await client.execute(
                uri: "/v1/resolve?url=https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42&feature=share&platform=phone",
                method: .get
            ) { response in
                #expect(response.status == .ok)
                let body = try ServerRoutesTests.json(response.body)
                #expect(body["input"] as? String == "https://www.youtube.com/watch?v=dQw4w9WgXcQ")
                let notices = try #require(body["notices"] as? [[String: Any]])
                #expect(notices.compactMap { $0["code"] as? String } == ["E_LINK_CUT"])
                #expect(
                    notices.first?["message"] as? String
                        == #"the link's query ends at an unencoded &: "t=42", "feature=share" were read as parameters of this request, not as part of the link; encode the link (& as %26) to resolve it whole"#
                )
            }
            // Encoded, the link is whole and nothing is said.
            try await client.execute(
                uri: "/v1/resolve?url=https://www.youtube.com/watch?v%3DdQw4w9WgXcQ%26t%3D42",
                method: .get
            ) { response in
                #expect(response.status == .ok)
                let body = try ServerRoutesTests.json(response.body)
                #expect(body["notices"] == nil)
            }
        }
    }

    @Test func aCutLinkForClaimsIsRefusedWithTheHint() async throws {
        let app = try await ServerRoutesTests.server().application()
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/claims?url=https://example.com/?a=1&b=2", method: .get) { response in
                // Without --claims the route says so first; the query is checked before that.
                #expect(response.status == .badRequest)
                let error = try Self.error(response.body)
                #expect(error["code"] as? String == "E_UNKNOWN_PARAMETER")
                #expect((error["message"] as? String)?.contains("encode the link (& as %26)") == true)
            }
        }
    }

    @Test(arguments: [
        (
            #"{"urls": ["https://twitter.com/jack"], "platfrom": "phone"}"#, "$.platfrom",
            #"the body has no field "platfrom"; did you mean "platform"?"#
        ),
        (#"{"url": ["https://twitter.com/jack"]}"#, "$.url", #"the body has no field "url"; did you mean "urls"?"#),
        (
            #"{"url": "bear://x-callback-url/create", "x-success": "a://"}"#, "$.x-success",
            #"the body has no field "x-success" (the keys: url)"#
        ),
    ])
    func anUnknownBodyFieldIsRefusedByName(body: String, path: String, message: String) async throws {
        let app = try await ServerRoutesTests.server().application()
        let uri = body.contains("bear://") ? "/v1/xcallback/parse" : "/v1/resolve"
        try await app.test(.router) { client in
            try await client.execute(uri: uri, method: .post, body: ByteBuffer(string: body)) { response in
                #expect(response.status == .badRequest)
                let error = try Self.error(response.body)
                #expect(error["code"] as? String == "E_UNKNOWN_FIELD")
                #expect(error["path"] as? String == path)
                #expect(error["message"] as? String == message)
            }
        }
    }
}
