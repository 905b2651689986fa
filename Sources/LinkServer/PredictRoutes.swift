import DevicePrediction
import DomainClaimsStage
import Hummingbird
import LinkFetching
import LinkResolver
import WebLinks

/// `POST /v1/predict` `{"url": "https://…", "device": {…a device file…}, "files": {…}?}`: what a tap on the link opens
/// on the device, what the system would offer and why (the document of `switchyard predict --json`). A device that
/// cannot be read is `400 E_DEVICE` naming its JSON pointer. What the device does not give (a derived Android
/// verification's assetlinks.json, an iPhone's apple-app-site-association file) is taken from `files` when given,
/// else read through the server's network when it reads claims (`serve --claims`); otherwise the reasons say it was
/// not read.
struct PredictRoutes {
    let store: RuleSetStore
    let configuration: ServerConfiguration

    /// The route, relative to `/v1`.
    var collection: RouteCollection<SwitchyardRequestContext> {
        let routes = RouteCollection(context: SwitchyardRequestContext.self)
        routes.post("predict") { request, context in try await predict(request, context: context) }
        return routes
    }

    func predict(_ request: Request, context: SwitchyardRequestContext) async throws -> Prediction {
        let body = try await JSONBodyDecoder.body(of: request, context: context)
        let json: JSONNode
        do {
            json = try JSONReader().parse(Array(body.readableBytesView))
        } catch {
            throw APIError(.badRequest, "E_JSON", "the body is not JSON: \(error.message) at \(error.position)")
        }
        guard json.members != nil else {
            throw APIError(.badRequest, "E_JSON", "the body is \(json.typeDescription), not an object", path: "$")
        }
        guard let url = json["url"]?.stringValue else {
            throw APIError(
                .badRequest,
                "E_MISSING_URL",
                "add the link that is tapped as \"url\" (a string)",
                path: "$.url"
            )
        }
        guard let deviceNode = json["device"] else {
            throw APIError(
                .badRequest,
                "E_DEVICE",
                "add the device as \"device\": a device file's object",
                path: "$.device"
            )
        }
        let link: TappedLink
        let device: Device
        let given: GivenDomainFiles?
        do {
            link = try TappedLink(url)
        } catch {
            throw APIError(.badRequest, "E_BAD_LINK", error.message, path: "$.url")
        }
        do {
            device = try Device(json: deviceNode)
        } catch {
            // The reader's pointers are into the device; a client's are into the body.
            throw Self.deviceError(error, under: "device")
        }
        do {
            given = try json["files"].map { node throws(PredictionError) in try GivenDomainFiles(json: node) }
        } catch {
            throw Self.deviceError(error, under: nil)
        }
        let source: (any DomainFileReading)?
        if let given {
            source = given
        } else if !configuration.openingStages.isEmpty, let fetcher = store.current.resolver.fetcher {
            source = ClaimsLookup(fetcher: ResolutionScope(wrapping: fetcher), deadline: .now + configuration.timeLimit)
        } else {
            source = nil
        }
        return await DevicePredictor.predict(link, on: device, reading: source)
    }

    /// `400 E_DEVICE` naming the place in the body: the reader's pointer under `member` (nil: it is the body's).
    private static func deviceError(_ error: PredictionError, under member: String?) -> APIError {
        guard var pointer = error.pointer else { return APIError(.badRequest, "E_DEVICE", error.message) }
        if let member { pointer = JSONPointer(tokens: [member] + pointer.tokens) }
        return APIError(.badRequest, "E_DEVICE", "\(pointer): \(error.message)", path: path(pointer))
    }

    /// A pointer as a JSON path (`$.device.apps[0]`).
    static func path(_ pointer: JSONPointer) -> String {
        "$" + pointer.tokens.map { token in Int(token) != nil ? "[\(token)]" : ".\(token)" }.joined()
    }
}

extension Prediction: ResponseGenerator, ResponseEncodable {}
