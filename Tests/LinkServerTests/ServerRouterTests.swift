import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinkResolver
import Testing

@testable import LinkServer

/// How the router is put together: 405 and 404 answers, body decoding errors and metric labels.
@Suite struct ServerRouterTests {
    static func server() async throws -> SwitchyardServer {
        try await SwitchyardServer(
            configuration: ServerConfiguration(port: 0, maximumBodyBytes: 4096, networkEnabled: false)
        )
    }

    static func error(_ response: TestResponse) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
        return try #require((object as? [String: Any])?["error"] as? [String: Any], "\(String(buffer: response.body))")
    }

    @Test(arguments: [
        ("/v1/resolve", HTTPRequest.Method.delete, "GET, HEAD, POST"),
        ("/v1/resolve", .put, "GET, HEAD, POST"),
        ("/v1/explain", .post, "GET, HEAD"),
        ("/v1/xcallback/parse", .get, "POST"),
        ("/v1/tests", .patch, "GET, HEAD"),
        ("/healthz", .post, "GET, HEAD"),
        ("/", .post, "GET, HEAD"),
    ])
    func wrongMethodsAre405WithTheAllowedOnes(path: String, method: HTTPRequest.Method, allow: String) async throws {
        try await Self.server().application().test(.router) { client in
            try await client.execute(uri: path, method: method) { response in
                let error = try Self.error(response)
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == allow)
                #expect(error["code"] as? String == "E_METHOD")
            }
        }
    }

    /// Hummingbird sends any method a path does not handle to its not-found responder, so a method the 405 table
    /// could not list in advance (`OPTIONS`, `HEAD`, one it has never heard of) would be a misleading 404.
    @Test(arguments: [
        ("/v1/resolve", "OPTIONS", "GET, HEAD, POST"),
        ("/v1/xcallback/parse", "HEAD", "POST"),
        ("/v1/tests", "BREW", "GET, HEAD"),
        ("/v1/app-types", "POST", "GET, HEAD"),
        ("/v1/resolve/", "PUT", "GET, HEAD, POST"),
        ("/metrics", "TRACE", "GET, HEAD"),
    ])
    func anyMethodAPathDoesNotHandleIs405(path: String, method: String, allow: String) async throws {
        try await Self.server().application().test(.router) { client in
            try await client.execute(uri: path, method: try #require(HTTPRequest.Method(method))) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == allow)
                if method != "HEAD" {
                    let text = String(buffer: response.body)
                    #expect(text.hasPrefix(#"{"version":"#), "\(text)")
                    let error = try Self.error(response)
                    #expect(error["code"] as? String == "E_METHOD")
                    #expect((error["message"] as? String)?.contains(method) == true)
                }
            }
        }
    }

    /// HEAD is answered wherever GET is: the headers, no body (a load balancer's health check may send it).
    @Test func headIsAnsweredOnEveryGetRoute() async throws {
        try await Self.server().application().test(.router) { client in
            for path in ["/healthz", "/v1/apps", "/"] {
                try await client.execute(uri: path, method: .head) { response in
                    #expect(response.status == .ok, "\(path)")
                    #expect(response.body.readableBytes == 0)
                    #expect(response.headers[.contentType] != nil)
                }
            }
        }
    }

    @Test func aRouteAddedLaterGetsItsAllowLineFromTheRouter() async throws {
        let server = try await Self.server()
        let extra = RouteCollection(context: SwitchyardRequestContext.self)
        extra.put("v1/extra") { _, _ in HTTPResponse.Status.noContent }
        extra.patch("v1/extra") { _, _ in HTTPResponse.Status.noContent }
        let app = await server.application(
            router: server.router(adding: [extra]),
            reloadsOnHangUp: false,
            onServerRunning: nil
        )
        try await app.test(.router) { client in
            try await client.execute(uri: "/v1/extra", method: .put) { response in
                #expect(response.status == .noContent)
            }
            try await client.execute(uri: "/v1/extra", method: .delete) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "PATCH, PUT")
            }
        }
    }

    @Test func unknownPathsAre404WithAJSONError() async throws {
        try await Self.server().application().test(.router) { client in
            let unknown: [(String, HTTPRequest.Method)] = [
                ("/nope", .get), ("/v1/resolver", .get), ("/v1", .get), ("/v1/", .get), ("/v1/resolve/x", .get),
                ("/v1/nope", .post), ("/v2/resolve", .get), ("/nope", .delete), ("/v1/nope", .options),
                ("/playground/missing.js", .get),
            ]
            for (path, method) in unknown {
                try await client.execute(uri: path, method: method) { response in
                    #expect(response.status == .notFound, "\(method) \(path)")
                    #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                    #expect(String(buffer: response.body).hasPrefix(#"{"version":"#))
                    let error = try Self.error(response)
                    #expect(error["code"] as? String == "E_NOT_FOUND")
                    #expect((error["message"] as? String)?.contains(path) == true)
                }
            }
        }
    }

    @Test(arguments: [
        ("/v1/resolve", #"{"urls": [1]}"#, "$.urls[0]"),
        ("/v1/resolve", #"{"urls": ["https://a.example/", "https://b.example/", true]}"#, "$.urls[2]"),
        ("/v1/resolve", #"{}"#, "$.urls"),
        ("/v1/resolve", #"{"urls": null}"#, "$.urls"),
        ("/v1/resolve", #"{"urls": [], "installed": "a,b"}"#, "$.installed"),
        ("/v1/resolve", #"{"urls": ["#, "$"),
        ("/v1/resolve", #"[]"#, "$"),
        ("/v1/xcallback/parse", #"{"url": 5}"#, "$.url"),
        // A body without the link (a misspelt key is E_UNKNOWN_FIELD: UnknownParameterTests).
        ("/v1/xcallback/parse", #"{}"#, "$.url"),
    ])
    func wrongShapedBodiesNameTheFieldAtFault(path: String, body: String, jsonPath: String) async throws {
        try await Self.server().application().test(.router) { client in
            try await client.execute(uri: path, method: .post, body: ByteBuffer(string: body)) { response in
                #expect(response.status == .badRequest)
                let error = try Self.error(response)
                #expect(error["code"] as? String == "E_JSON")
                #expect(error["path"] as? String == jsonPath)
                let message = try #require(error["message"] as? String)
                #expect(message.hasPrefix(jsonPath + ": "))
                #expect(!message.contains("Swift."), "a Swift type name reached the client: \(message)")
            }
        }
    }

    @Test func aBodyOverTheLimitIs413WithAJSONError() async throws {
        try await Self.server().application().test(.router) { client in
            let body = ByteBuffer(string: #"{"urls": [""# + String(repeating: "a", count: 5000) + #""]}"#)
            for path in ["/v1/resolve", "/v1/xcallback/parse"] {
                try await client.execute(uri: path, method: .post, body: body) { response in
                    #expect(response.status == .contentTooLarge)
                    #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                    let error = try Self.error(response)
                    #expect(error["code"] as? String == "E_BODY_TOO_LARGE")
                    #expect((error["message"] as? String)?.contains("4096") == true)
                }
            }
        }
    }

    @Test func metricLabelsAreTheRegisteredRoutes() async throws {
        let server = try await Self.server()
        try await server.application().test(.router) { client in
            try await client.execute(uri: "/nope/1", method: .get)
            try await client.execute(uri: "/nope/2", method: .get)
            try await client.execute(uri: "/v1/resolve", method: .delete)
            try await client.execute(uri: "/playground/app.js", method: .get)
            try await client.execute(uri: "/metrics", method: .get) { response in
                let text = String(buffer: response.body)
                #expect(text.contains(#"switchyard_requests_total{route="other",status="404"} 2"#), "\(text)")
                #expect(text.contains(#"switchyard_requests_total{route="/v1/resolve",status="405"} 1"#))
                #expect(text.contains(#"switchyard_requests_total{route="/playground/app.js",status="200"} 1"#))
                #expect(!text.contains("nope"))
                #expect(text.contains(#"switchyard_rule_reloads_total{outcome="rejected"} 0"#))
                #expect(text.contains("switchyard_rule_set_generation 1"))
            }
        }
    }
}
