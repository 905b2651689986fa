import ArgumentParser
import DevicePrediction
import DomainClaimsStage
import Foundation
import LinkFetching
import LinkMatching
import LinkRules
import WebLinks

/// `switchyard predict URL --device FILE [--json]`: what a tap on the link opens on the device, what the system would
/// offer, and the rules that decided; and `switchyard predict --protocol`, the conformance protocol (one JSON request
/// per line in, one answer per line out).
struct PredictCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict",
        abstract: "Predict what a tap on a link opens on an Android 12+ or iOS device, and why.",
        discussion: """
            The device file (Docs/device.schema.json) gives the platform, the apps and their state. An Android app's \
            verification that is not given is derived from the domain's assetlinks.json and the app's fingerprints, \
            and an iPhone's apple-app-site-association file that is not given is read from the link's domain: both \
            fetched as the platforms fetch them, with the network options resolve takes (--offline reads nothing). \
            With --protocol, reads one JSON request per line (from --input or standard input) and writes one answer \
            per line, offline: see Docs/CommandLine.md.
            """
    )

    @Argument(help: "The link that is tapped (https, http or a custom scheme).")
    var url: String?

    @Option(
        help: ArgumentHelp("The device file (JSON: platform, apps, their state).", valueName: "file"),
        completion: .file(extensions: ["json"])
    )
    var device: String?

    @Flag(help: "Print one JSON object: {platform, link, opens, candidates, reasons}.")
    var json = false

    @OptionGroup var lines: ProtocolOptions

    @OptionGroup(title: "Network (when a domain's files are read)") var network: NetworkOptions

    func run() async throws {
        if lines.conformanceProtocol {
            guard url == nil, device == nil else {
                throw CommandFailure(message: "error: --protocol takes no link or --device: the requests give theirs")
            }
            return try await lines.answer { await PredictProtocol.answer($0) }
        }
        guard let url else { throw CommandFailure(message: "error: predict needs a link (or --protocol)") }
        guard let device else {
            throw CommandFailure(
                message: "error: predict needs the device: add --device FILE (Docs/device.schema.json)"
            )
        }
        let state = try DeviceFile.read(device)
        let link = try DeviceFile.link(url)
        let prediction = try await DeviceFile.predict(link, on: state, network: network)
        let output = CommandOutput.current
        if json { return try output.printJSON(prediction) }
        for line in PredictionText.lines(of: prediction) { output.print(line) }
    }
}

/// The device file of `predict` and `explain --device`: read, and predicted over the network options.
enum DeviceFile {
    /// The device at `path`: `PATH:LINE:COLUMN: error: POINTER: message` when it cannot be read.
    static func read(_ path: String) throws(CommandFailure) -> Device {
        let data: Data
        do {
            data = try UserFile.read(path, maximumBytes: Device.maximumBytes)
        } catch {
            throw CommandFailure(error, what: "device file")
        }
        do {
            return try Device(bytes: data)
        } catch {
            throw CommandFailure(
                message: "\(path):\(error.position.map { "\($0):" } ?? "") error: \(error.description)"
            )
        }
    }

    /// The link argument.
    static func link(_ text: String) throws(CommandFailure) -> TappedLink {
        do {
            return try TappedLink(text)
        } catch {
            throw CommandFailure(message: "error: \(error.message)")
        }
    }

    /// The prediction, reading what the device does not give through `network` (offline: nothing is read).
    static func predict(
        _ link: TappedLink,
        on device: Device,
        network: NetworkOptions
    ) async throws(CommandFailure) -> Prediction {
        guard PredictionEvidence.needsReading(for: link, on: device) else {
            return DevicePredictor.predict(link, on: device)
        }
        let source = try network.fetcher(onlineByDefault: true).map {
            ClaimsLookup(fetcher: $0, deadline: .now + network.timeLimit)
        }
        return await DevicePredictor.predict(link, on: device, reading: source)
    }
}

extension DeviceFile {
    /// The predictions for the links `resolution` explains: its input, and its final link when unwrapping changed it
    /// (a link that is not one a device opens is left out).
    static func predictions(
        of resolution: Resolution,
        on device: Device,
        network: NetworkOptions
    ) async throws(CommandFailure) -> [Prediction] {
        var predictions: [Prediction] = []
        var texts = [resolution.input]
        if resolution.unwrapped != resolution.input { texts.append(resolution.unwrapped) }
        for text in texts {
            guard let link = try? TappedLink(text), !predictions.contains(where: { $0.link == link.text }) else {
                continue
            }
            predictions.append(try await predict(link, on: device, network: network))
        }
        return predictions
    }
}

/// A prediction as text, for `predict` and `explain --device`.
enum PredictionText {
    /// `Opens:`, `Candidates:` and each reason with its rule, indented by `indent`.
    static func lines(of prediction: Prediction, indent: String = "") -> [String] {
        var lines = [
            "\(indent)Link:       \(OutputSafety.visible(prediction.link)) (\(prediction.platform))",
            "\(indent)Opens:      \(prediction.outcome.text)",
            "\(indent)Candidates: \(prediction.candidates.isEmpty ? "-" : prediction.candidates.joined(separator: ", "))",
            "\(indent)Why:",
        ]
        for reason in prediction.reasons {
            lines.append("\(indent)  [\(reason.rule)] \(OutputSafety.visible(reason.text))")
        }
        return lines
    }
}
