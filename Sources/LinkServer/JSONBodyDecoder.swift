import Foundation
import Hummingbird
import LinkResolver
import NIOCore

/// Decodes a JSON request body for `request.decode(as:context:)`, answering what went wrong in the API's own errors:
/// a body over the context's `maxUploadSize` is `413 E_BODY_TOO_LARGE`, and a body of the wrong shape is
/// `400 E_JSON` with the JSON path of the field at fault (`$.urls[3]`) in `error.path`; a resolve request's field
/// that does not fit is `400` with its own code (`E_PLATFORM`) and path (`$.platform`).
struct JSONBodyDecoder: RequestDecoder {
    /// What the JSON decoder's `userInfo` holds (the server's request defaults for a batch body).
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        let body = try await Self.body(of: request, context: context)
        let decoder = JSONDecoder()
        decoder.userInfo = userInfo
        do {
            return try decoder.decode(T.self, from: Data(body.readableBytesView))
        } catch let error as DecodingError {
            throw Self.apiError(error)
        } catch let error as ResolveRequestError {
            var apiError = APIError(error, naming: "\"\(error.field.stringValue)\"")
            apiError.path = "$." + error.field.stringValue
            throw apiError
        }
    }

    /// The request's body, at most the context's `maxUploadSize` bytes (`413 E_BODY_TOO_LARGE` over it).
    static func body(of request: Request, context: some RequestContext) async throws -> ByteBuffer {
        do {
            return try await request.body.collect(upTo: context.maxUploadSize)
        } catch is NIOTooManyBytesError {
            throw APIError(
                .contentTooLarge,
                "E_BODY_TOO_LARGE",
                "the request body is larger than \(context.maxUploadSize) bytes"
            )
        }
    }

    /// The API error for a body that does not decode: where (a JSON path) and what was expected, in words of JSON
    /// (Foundation's own descriptions never reach a client).
    static func apiError(_ error: DecodingError) -> APIError {
        let path: String
        let problem: String
        switch error {
        case .typeMismatch(let type, let context):
            path = jsonPath(context.codingPath)
            problem = "expected \(jsonName(of: type))"
        case .valueNotFound(let type, let context):
            path = jsonPath(context.codingPath)
            problem = "expected \(jsonName(of: type)), found null"
        case .keyNotFound(let key, let context):
            path = jsonPath(context.codingPath + [key])
            problem = "this key is required"
        case .dataCorrupted(let context):
            path = jsonPath(context.codingPath)
            problem = context.codingPath.isEmpty ? "the body is not valid JSON" : "the value is not valid here"
        @unknown default:
            path = "$"
            problem = "the body does not have the expected shape"
        }
        return APIError(.badRequest, "E_JSON", "\(path): \(problem)", path: path)
    }

    /// `$`, `$.urls`, `$.urls[3]`: a coding path as a JSON path.
    static func jsonPath(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce("$") { path, key in
            if let index = key.intValue { return path + "[\(index)]" }
            return path + "." + key.stringValue
        }
    }

    /// The JSON name of the type a decoder expected (`a string`, `an array`, …).
    static func jsonName(of type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is any BinaryInteger.Type: "an integer"
        case is any BinaryFloatingPoint.Type: "a number"
        case is [Any].Type: "an array"
        case is [String: Any].Type: "an object"
        default: "a value of type \(type)"
        }
    }
}
