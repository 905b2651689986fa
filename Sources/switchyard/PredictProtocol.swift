import DevicePrediction
import WebLinks

/// The conformance protocol of `switchyard predict --protocol`: one JSON request per line in, one JSON answer per line
/// out, a bad line answered, never fatal.
///
/// A request is a device file's object with an `id`, the `link` tapped and, for an Android app whose verification is
/// derived, the domains' files by URL (`files`: `{"https://a.example/.well-known/assetlinks.json": "<body>"}`, each a
/// string or the JSON itself); nothing is fetched. The answer is
/// `{"id":…,"opens":"com.a"|"browser"|"chooser"|"ABCDE12345.com.a"|"safari"|"none","candidates":[…]}`, or
/// `{"id":…,"error":"…"}` naming the JSON pointer at fault, with `"id":null` when the id cannot be read.
enum PredictProtocol {
    /// The answer line (without a newline) to one request line.
    static func answer(_ line: String) async -> String {
        let request: JSONNode
        do {
            request = try JSONReader().parse(line)
        } catch {
            return reply(nil, error: "the line is not JSON: \(error.message) at column \(error.position.column)")
        }
        guard let members = request.members else {
            return reply(nil, error: "the line is \(request.typeDescription), not a JSON object")
        }
        let id = members.last { $0.key == "id" }?.value
        guard let linkNode = members.last(where: { $0.key == "link" })?.value else {
            return reply(id, error: "the request has no \"link\": add the link that is tapped")
        }
        guard let text = linkNode.stringValue else {
            return reply(id, error: "/link: expected a string, found \(linkNode.typeDescription)")
        }
        let device: Device
        let link: TappedLink
        let files: GivenDomainFiles
        do {
            device = try Device(json: request)
            link = try TappedLink(text)
            files = try GivenDomainFiles(json: members.last { $0.key == "files" }?.value)
        } catch {
            return reply(id, error: error.description)
        }
        let prediction = await DevicePredictor.predict(link, on: device, reading: files)
        return reply(id, prediction)
    }

    private static func quoted(_ text: String) -> String {
        var output = ""
        JSONWriter.appendQuoted(text, to: &output)
        return output
    }

    private static func start(_ id: JSONNode?) -> String {
        "{\"id\":" + (id.map { JSONWriter(style: .compact).write($0) } ?? "null")
    }

    private static func reply(_ id: JSONNode?, error: String) -> String {
        start(id) + ",\"error\":" + quoted(error) + "}"
    }

    private static func reply(_ id: JSONNode?, _ prediction: Prediction) -> String {
        let candidates = prediction.candidates.map(quoted).joined(separator: ",")
        return start(id) + ",\"opens\":" + quoted(prediction.outcome.text) + ",\"candidates\":[" + candidates + "]}"
    }
}
