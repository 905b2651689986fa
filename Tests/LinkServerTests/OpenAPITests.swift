import AppChooser
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinkResolver
import LinkRules
import Testing

@testable import LinkServer

/// `/openapi.json` against the router: every registered route is described and every described operation is
/// registered, the main errors are listed, and the live router's answers validate against the described schemas.
@Suite struct OpenAPITests {
    static func server(choices: ChoicesStore? = nil) async throws -> SwitchyardServer {
        var configuration = ServerConfiguration(
            port: 0,
            maximumLinkLength: 200,
            maximumBodyBytes: 4096,
            maximumBatchSize: 5,
            networkEnabled: false
        )
        configuration.choices = choices
        return try await SwitchyardServer(configuration: configuration)
    }

    static func object(_ buffer: ByteBuffer) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(buffer.readableBytesView), options: .fragmentsAllowed)
    }

    static func specification(_ client: some TestClientProtocol) async throws -> [String: Any] {
        try await client.execute(uri: "/openapi.json", method: .get) { response in
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            return try #require(try object(response.body) as? [String: Any])
        }
    }

    @Test func everyRegisteredRouteIsDescribedAndEveryDescribedOneIsRegistered() async throws {
        let server = try await Self.server()
        // The routes the router registered (the 405 answers are middleware, not routes).
        let registered = Set(server.router().routes.map { "\($0.method.rawValue) \($0.path.description)" })
        #expect(registered.contains("GET /v1/resolve") && registered.contains("GET /openapi.json"))
        try await server.application().test(.router) { client in
            let specification = try await Self.specification(client)
            #expect(specification["openapi"] as? String == "3.1.0")
            #expect((specification["info"] as? [String: Any])?["version"] as? String == SwitchyardVersion.current)
            let paths = try #require(specification["paths"] as? [String: [String: Any]])
            let methods: Set = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
            let described = Set(
                paths.flatMap { path, item in item.keys.filter(methods.contains).map { "\($0.uppercased()) \(path)" } }
            )
            #expect(
                registered.subtracting(described).isEmpty,
                "registered, not described: \(registered.subtracting(described))"
            )
            #expect(
                described.subtracting(registered).isEmpty,
                "described, not registered: \(described.subtracting(registered))"
            )
        }
    }

    /// Every field of the one request value is a described query parameter of the resolution routes (but the headers,
    /// which only a body can carry) and a property of the batch body: a new field is documented or this fails.
    @Test func everyRequestFieldIsDescribed() async throws {
        try await Self.server().application().test(.router) { client in
            let specification = try await Self.specification(client)
            let paths = try #require(specification["paths"] as? [String: [String: Any]])
            let components = try #require(specification["components"] as? [String: Any])
            let parameters = try #require(components["parameters"] as? [String: [String: Any]])
            let fields = Set(ResolveRequest.Field.allCases.map(\.stringValue))
            for path in ["/v1/resolve", "/v1/explain"] {
                let operation = try #require(paths[path]?["get"] as? [String: Any])
                let listed = (operation["parameters"] as? [[String: Any]] ?? []).compactMap { parameter -> String? in
                    guard let reference = parameter["$ref"] as? String else { return parameter["name"] as? String }
                    return parameters[String(reference.split(separator: "/").last ?? "")]?["name"] as? String
                }
                #expect(fields.subtracting(["headers"]).subtracting(listed).isEmpty, "\(path): \(listed)")
            }
            let schemas = try #require(components["schemas"] as? [String: [String: Any]])
            let batch = try #require(schemas["BatchRequest"]?["properties"] as? [String: Any])
            #expect(fields.subtracting(batch.keys).isEmpty, "\(fields.subtracting(batch.keys))")
        }
    }

    /// The main errors each operation can answer are described, with the error document.
    @Test func theMainErrorsAreDescribed() async throws {
        try await Self.server().application().test(.router) { client in
            let specification = try await Self.specification(client)
            let paths = try #require(specification["paths"] as? [String: [String: [String: Any]]])
            let expected: [(String, String, [String])] = [
                ("/v1/resolve", "get", ["200", "400", "414"]), ("/v1/resolve", "post", ["200", "400", "413"]),
                ("/v1/explain", "get", ["200", "400", "414"]), ("/v1/choose", "get", ["200", "400", "404"]),
                ("/v1/claims", "get", ["200", "400", "404", "414", "503"]),
                ("/v1/xcallback/parse", "post", ["200", "400", "413"]), ("/v1/choices/sites", "get", ["200", "404"]),
                ("/v1/choices/sites/{host}", "put", ["200", "400", "404", "413"]),
                ("/v1/choices/sites/{host}", "delete", ["200", "400", "404"]),
            ]
            for (path, method, statuses) in expected {
                let responses = try #require(paths[path]?[method]?["responses"] as? [String: Any])
                for status in statuses { #expect(responses[status] != nil, "\(method) \(path) lacks \(status)") }
            }
            for (path, item) in paths {
                for (method, operation) in item {
                    let responses = try #require(operation["responses"] as? [String: Any])
                    for status in ["405", "431", "500"] {
                        #expect(responses[status] != nil, "\(method) \(path) lacks \(status)")
                    }
                }
            }
        }
    }

    /// One request per described answer: (method, path and query, body, status expected).
    static let exchanges: [(HTTPRequest.Method, String, String?, Int)] = [
        (.get, "/v1/resolve?url=https%3A%2F%2Ftwitter.com%2Fjack&platform=phone", nil, 200),
        (.get, "/v1/resolve?url=https%3A%2F%2Fj.example%2F", nil, 200),
        (.get, "/v1/resolve", nil, 400),
        (.get, "/v1/resolve?url=https://example.com/" + String(repeating: "a", count: 300), nil, 414),
        (.post, "/v1/resolve", #"{"urls": ["https://github.com/apple/swift", "nope"]}"#, 200),
        (.post, "/v1/resolve", #"{"urls": [1]}"#, 400),
        (.post, "/v1/resolve", #"{"urls": ["a", "b", "c", "d", "e", "f"]}"#, 413),
        (.get, "/v1/explain?url=https%3A%2F%2Fwww.google.com%2Furl%3Fq%3Dhttps%3A%2F%2Ftwitter.com%2Fjack", nil, 200),
        // A server without --claims does not read a domain's claims.
        (.get, "/v1/claims?url=https%3A%2F%2Fexample.com%2F", nil, 404),
        (.get, "/v1/apps", nil, 200),
        (.get, "/v1/tests", nil, 200),
        (.get, "/v1/choose?type=twitter&action=show_profile&param=profile_screenname%3Djack", nil, 200),
        (.get, "/v1/choose?type=twitter", nil, 400),
        (.get, "/v1/choose?type=fax&action=send", nil, 404),
        (.get, "/v1/app-types", nil, 200),
        (
            .post, "/v1/xcallback/parse", #"{"url": "bear://x-callback-url/create?title=a&x-success=app%3A%2F%2Fok"}"#,
            200
        ),
        (
            .post, "/v1/xcallback/parse", #"{"url": "bear://x-callback-url/create?x-success=javascript%3Aalert(1)"}"#,
            400
        ),
        // Site choices: a preferred opening, then a notice, in the resolution documents.
        (.put, "/v1/choices/sites/twitter.com", #"{"app": "x", "includeSubdomains": true}"#, 200),
        (.get, "/v1/resolve?url=https%3A%2F%2Fmobile.twitter.com%2Fjack", nil, 200),
        (.put, "/v1/choices/sites/www.youtube.com", #"{"app": "x"}"#, 200),
        (.get, "/v1/explain?url=https%3A%2F%2Fwww.youtube.com%2Fwatch%3Fv%3DdQw4w9WgXcQ", nil, 200),
        (.post, "/v1/resolve", #"{"urls": ["https://www.youtube.com/watch?v=dQw4w9WgXcQ"]}"#, 200),
        (.put, "/v1/choices/sites/co.uk", #"{"app": "x", "includeSubdomains": true}"#, 400),
        (.get, "/v1/choices/sites", nil, 200),
        (.delete, "/v1/choices/sites/twitter.com", nil, 200),
        (.delete, "/v1/choices/sites/twitter.com", nil, 404),
        (.get, "/healthz", nil, 200),
        (.delete, "/v1/resolve", nil, 405),
        (.get, "/metrics", nil, 200),
        (.get, "/", nil, 200),
    ]

    /// The described path a concrete one matches (`/v1/choices/sites/a.example` → `/v1/choices/sites/{host}`).
    static func template(of path: String, in described: [String]) -> String {
        if described.contains(path) { return path }
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return described.first { template in
            let parts = template.split(separator: "/", omittingEmptySubsequences: false)
            return parts.count == segments.count
                && zip(parts, segments).allSatisfy { part, segment in part == segment || part.hasPrefix("{") }
        } ?? path
    }

    @Test func theLiveRoutersAnswersValidateAgainstTheirSchemas() async throws {
        let store = FileManager.default.temporaryDirectory.appendingPathComponent("openapi-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: store) }
        let choices = try ChoicesStore(path: store.path)
        try await Self.server(choices: choices).application().test(.router) { client in
            let specification = try await Self.specification(client)
            let validator = SchemaValidator(specification: specification)
            let paths = try #require(specification["paths"] as? [String: [String: [String: Any]]])
            for (method, uri, body, status) in Self.exchanges {
                let path = Self.template(of: String(uri.prefix { $0 != "?" }), in: Array(paths.keys))
                try await client.execute(uri: uri, method: method, body: body.map { ByteBuffer(string: $0) }) {
                    response in
                    #expect(Int(response.status.code) == status, "\(method) \(uri): \(String(buffer: response.body))")
                    // A method the path does not handle is answered as any of the path's operations says for 405.
                    let operation = try #require(
                        paths[path]?[method.rawValue.lowercased()] ?? (status == 405 ? paths[path]?.values.first : nil),
                        "\(method) \(path)"
                    )
                    let responses = try #require(operation["responses"] as? [String: Any])
                    let described = try #require(
                        responses[String(status)].map(validator.resolve) as? [String: Any],
                        "\(method) \(path) does not describe \(status)"
                    )
                    let content = try #require(described["content"] as? [String: [String: Any]])
                    let type = try #require(
                        response.headers[.contentType]?.split(separator: ";").first.map(String.init)
                    )
                    let media = try #require(content[type], "\(method) \(path) \(status): \(type) is not described")
                    guard type == "application/json" else { return }
                    let schema = try #require(media["schema"])
                    let problems = validator.problems(try Self.object(response.body), against: schema)
                    #expect(problems.isEmpty, "\(method) \(uri) \(status): \(problems.prefix(5))")
                }
            }
            // The not-found answer of any other path is the components' NotFound response.
            try await client.execute(uri: "/v1/nope", method: .get) { response in
                #expect(response.status == .notFound)
                let notFound = validator.resolve(["$ref": "#/components/responses/NotFound"])
                let schema = try #require(
                    ((notFound as? [String: Any])?["content"] as? [String: [String: Any]])?["application/json"]?[
                        "schema"
                    ]
                )
                #expect(validator.problems(try Self.object(response.body), against: schema).isEmpty)
            }
        }
    }

    /// The validator finds what it should: a test of the test.
    @Test func theValidatorRefusesWrongDocuments() throws {
        let specification: [String: Any] = [
            "components": [
                "schemas": [
                    "E": [
                        "type": "object", "additionalProperties": false, "required": ["code"],
                        "properties": [
                            "code": ["type": "string", "pattern": "^E_"], "n": ["type": ["integer", "null"]],
                        ],
                    ]
                ]
            ]
        ]
        let validator = SchemaValidator(specification: specification)
        let schema = ["$ref": "#/components/schemas/E"]
        #expect(validator.problems(["code": "E_X", "n": NSNull()], against: schema).isEmpty)
        #expect(validator.problems(["code": "E_X", "n": 3], against: schema).isEmpty)
        #expect(!validator.problems(["n": 3], against: schema).isEmpty)
        #expect(!validator.problems(["code": "X"], against: schema).isEmpty)
        #expect(!validator.problems(["code": "E_X", "extra": 1], against: schema).isEmpty)
        #expect(!validator.problems(["code": 5], against: schema).isEmpty)
        #expect(!validator.problems(["code": "E_X", "n": "3"], against: schema).isEmpty)
        #expect(!validator.problems([1], against: schema).isEmpty)
    }
}

/// The part of JSON Schema (2020-12, as OpenAPI 3.1 uses it) that the description uses: `$ref` into the
/// components, `type` (one or a list), `properties`, `required`, `additionalProperties: false`, `items`, `enum`,
/// `const`, `pattern`, `allOf`, `oneOf`. Anything else in a schema is ignored.
struct SchemaValidator {
    let specification: [String: Any]

    /// `value` with a `{"$ref": "#/…"}` replaced by what it points to (once more while it is a reference).
    func resolve(_ value: Any) -> Any {
        guard let reference = (value as? [String: Any])?["$ref"] as? String, reference.hasPrefix("#/") else {
            return value
        }
        var target: Any = specification
        for key in reference.dropFirst(2).split(separator: "/") {
            target = (target as? [String: Any])?[String(key)] ?? [:]
        }
        return resolve(target)
    }

    /// Why `value` does not match `schema`, one line per problem with its JSON path; empty when it matches.
    func problems(_ value: Any, against schema: Any, at path: String = "$") -> [String] {
        guard let schema = resolve(schema) as? [String: Any] else { return ["\(path): the schema is not an object"] }
        var found: [String] = []
        if let types = (schema["type"] as? [String]) ?? (schema["type"] as? String).map({ [$0] }),
            !types.contains(where: { Self.value(value, is: $0) })
        {
            return ["\(path): \(Self.describe(value)) is not \(types.joined(separator: " or "))"]
        }
        if let allowed = schema["enum"] as? [Any], !allowed.contains(where: { Self.equal($0, value) }) {
            found.append("\(path): \(Self.describe(value)) is not one of \(allowed)")
        }
        if let constant = schema["const"], !Self.equal(constant, value) {
            found.append("\(path): \(Self.describe(value)) is not \(constant)")
        }
        if let pattern = schema["pattern"] as? String, let text = value as? String,
            text.range(of: pattern, options: .regularExpression) == nil
        {
            found.append("\(path): \"\(text)\" does not match \(pattern)")
        }
        if let object = value as? [String: Any] {
            let properties = schema["properties"] as? [String: Any] ?? [:]
            for key in schema["required"] as? [String] ?? [] where object[key] == nil {
                found.append("\(path): \(key) is missing")
            }
            for (key, member) in object {
                if let property = properties[key] {
                    found += problems(member, against: property, at: "\(path).\(key)")
                } else if schema["additionalProperties"] as? Bool == false {
                    found.append("\(path): \(key) is not described")
                }
            }
        }
        if let array = value as? [Any], let items = schema["items"] {
            for (index, item) in array.enumerated() { found += problems(item, against: items, at: "\(path)[\(index)]") }
        }
        for part in schema["allOf"] as? [Any] ?? [] { found += problems(value, against: part, at: path) }
        if let choices = schema["oneOf"] as? [Any] {
            let matching = choices.filter { problems(value, against: $0, at: path).isEmpty }.count
            if matching != 1 { found.append("\(path): matches \(matching) of oneOf's \(choices.count) schemas") }
        }
        return found
    }

    static func value(_ value: Any, is type: String) -> Bool {
        switch type {
        case "null": return value is NSNull
        case "object": return value is [String: Any]
        case "array": return value is [Any]
        case "string": return value is String
        case "boolean": return (value as? NSNumber).map(isBoolean) ?? false
        case "integer":
            guard let number = value as? NSNumber, !isBoolean(number) else { return false }
            return number.doubleValue.rounded() == number.doubleValue
        case "number": return (value as? NSNumber).map { !isBoolean($0) } ?? false
        default: return false
        }
    }

    /// JSON's `true` and `false` come back as numbers whose Objective-C type is `char`.
    static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    static func equal(_ left: Any, _ right: Any) -> Bool {
        (left as? NSObject)?.isEqual(right) ?? false
    }

    static func describe(_ value: Any) -> String {
        let text = "\(value)"
        return text.count > 60 ? text.prefix(60) + "…" : text
    }
}
