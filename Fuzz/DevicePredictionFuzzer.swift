import DevicePrediction
import DomainClaims
import Foundation
import WebLinks

/// Fuzzes the device reader and the decision: input `device JSON NUL link NUL assetlinks.json`.
///
/// Invariants: reading and deciding never crash; a refusal names a place inside the input (its position) and has a
/// message; a device that reads predicts, for the fuzzed link and for links on the hosts it names, an outcome its
/// candidates agree with (an app opens: it is a candidate, alone unless several iOS apps are claimed; the browser and
/// the chooser: at least one candidate, two for the chooser; Safari and nothing: none) with reasons ending in the one
/// that decided; the file served for the link's domain derives verifications without crashing; the same device
/// re-serialised (compact and pretty) reads to the same predictions.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let fields = FuzzInput.fields(FuzzInput.bytes(data, size), count: 3)
    DevicePredictionFuzzer.check(device: Array(fields[0].utf8), link: fields[1], statements: fields[2])
    return 0
}

/// The checks of the device target.
enum DevicePredictionFuzzer {
    static func check(device bytes: [UInt8], link text: String, statements: String) {
        let device: Device
        do {
            device = try Device(bytes: bytes)
        } catch {
            fuzzExpect(!error.message.isEmpty, "a refusal without a message")
            if let position = error.position {
                fuzzExpect(position.offset <= bytes.count, "a refusal at \(position) outside the input: \(error)")
            }
            return
        }
        var links = [text, "https://a.example/x", "http://a.example/", "https://localhost/", "app://x/y"]
        if case .android(let android) = device {
            for host in android.apps.flatMap({ $0.filters.flatMap(\.hosts) }).prefix(4) {
                links.append("https://" + host.replacingOccurrences(of: "*", with: "m") + "/p")
            }
        }
        let predictions = links.compactMap { try? TappedLink($0) }.map { link in
            let prediction = predict(link, on: device, statements: statements)
            checkConsistent(prediction)
            return prediction
        }
        guard let json = try? JSONReader().parse(bytes) else {
            fuzzExpect(false, "a device read from text JSONReader refuses")
            return
        }
        for style in [JSONWriter.Style.compact, .pretty(indent: 3)] {
            let text = JSONWriter(style: style).write(json)
            guard let again = try? Device(bytes: Array(text.utf8)) else {
                fuzzExpect(false, "the re-serialised device does not read: \(FuzzInput.preview(text))")
                return
            }
            let repeated = links.compactMap { try? TappedLink($0) }.map {
                predict($0, on: again, statements: statements)
            }
            fuzzExpect(
                repeated.map(\.outcome) == predictions.map(\.outcome)
                    && repeated.map(\.candidates) == predictions.map(\.candidates),
                "re-serialising the device changed a prediction: \(FuzzInput.preview(text))"
            )
        }
    }

    /// The prediction with `statements` served as the link's domain's assetlinks.json (read without suspending: the
    /// given files answer at once).
    static func predict(_ link: TappedLink, on device: Device, statements: String) -> Prediction {
        var evidence = PredictionEvidence()
        if let host = link.host, let site = AssetSite("https://" + host),
            let list = try? AssetStatementList(bytes: Array(statements.utf8))
        {
            evidence.statementLists[host] = AssetStatementLists(lists: [(site.statementListURL, list)])
        }
        return DevicePredictor.predict(link, on: device, evidence: evidence)
    }

    static func checkConsistent(_ prediction: Prediction) {
        let candidates = prediction.candidates
        switch prediction.outcome {
        case .app(let id):
            fuzzExpect(candidates.first == id, "\(id) opens but is not the first candidate: \(candidates)")
            fuzzExpect(
                candidates.count == 1 || prediction.platform == "ios",
                "an Android app opens among \(candidates)"
            )
        case .browser:
            fuzzExpect(!candidates.isEmpty, "the browser opens with no browser")
        case .chooser:
            fuzzExpect(candidates.count >= 2, "a chooser of \(candidates)")
        case .safari, .nothing:
            fuzzExpect(candidates.isEmpty, "\(prediction.outcome.text) with candidates \(candidates)")
        }
        fuzzExpect(Set(candidates).count == candidates.count, "a candidate twice: \(candidates)")
        fuzzExpect(
            prediction.reasons.last?.rule == "opens",
            "the reasons do not end with the decision: \(prediction.reasons.map(\.rule))"
        )
    }
}
