import ArgumentParser
import DevicePrediction
import Foundation
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
