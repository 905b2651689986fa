import DevicePrediction
import LinkRules

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
