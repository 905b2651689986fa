import HTTPTypes
import LinkRules
import WebLinks

extension RuleSet {
    /// Whether some `headers` action could match this link once headers are appended: its regex's part before the
    /// `\n` matches the link (a rule whose pattern cannot be split so is assumed to apply). A resolver looks the
    /// headers up only then.
    public func headerRulesCouldApply(to link: Link) -> Bool {
        headerURLPatterns.contains { pattern in pattern.map { $0.matches(link.text) } ?? true }
    }

    /// Compact JSON of response headers, names as sent and in server order (what `headers` actions match against).
    package static func compactJSON(_ headers: HTTPFields) -> String {
        var json = "{"
        for (index, field) in headers.enumerated() {
            if index > 0 { json.append(",") }
            JSONWriter.appendQuoted(field.name.rawName, to: &json)
            json.append(":")
            JSONWriter.appendQuoted(field.value, to: &json)
        }
        return json + "}"
    }
}
