import DevicePrediction
import DomainClaimsStage
import Foundation
import LinkMatching
import LinkRules

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
