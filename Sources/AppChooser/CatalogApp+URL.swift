import Foundation
import WebLinks

extension CatalogApp {
    /// This app's URL for an action, by Choosy's rules, made safe: before the `?`, each `{{parameter}}` becomes the
    /// percent-escaped value or nothing; in the query, a `key={{parameter}}` pair is kept only when its value is not
    /// empty, and a bare `{{parameter}}` pair (`echofon:///user_timeline?{{profile_screenname}}`) is the escaped value
    /// alone (Choosy itself crashes there); every value is escaped so that `&`, `=` and `#` in it cannot break the
    /// query. A format that is one placeholder (Safari's `{{url}}`) stands for a whole link: the value goes in as the
    /// link it is, read by the one link parser, not as text with its `:` and `/` escaped. An app without a format for
    /// the action, or whose link parameter is not a web link, falls back to its bare scheme. Parameters the format does
    /// not mention are dropped.
    public func url(for action: String, parameters: [String: String]) -> String {
        guard let format = actions.first(where: { $0.key == action })?.urlFormat, !format.isEmpty else {
            return urlScheme
        }
        if let key = Self.soleParameter(of: format) {
            guard let value = parameters[key], let link = try? Link(value) else { return urlScheme }
            return link.requestText
        }
        let questionMark = format.firstIndex(of: "?")
        let head = questionMark.map { String(format[..<$0]) } ?? format
        var url = Self.fill(head, parameters, escape: Self.pathAllowed)
        guard let questionMark else { return url }
        let pairs = format[format.index(after: questionMark)...].split(separator: "&", omittingEmptySubsequences: true)
            .compactMap { pair -> String? in
                let text = String(pair)
                let rendered = Self.fill(text, parameters, escape: Self.valueAllowed)
                guard text.contains("{{") else { return rendered }
                guard let equals = text.firstIndex(of: "=") else {
                    // A pair that is only a value: kept when the value is there.
                    return rendered.isEmpty ? nil : rendered
                }
                let value = Self.fill(String(text[text.index(after: equals)...]), parameters, escape: Self.valueAllowed)
                return value.isEmpty ? nil : rendered
            }
        if !pairs.isEmpty { url += "?" + pairs.joined(separator: "&") }
        return url
    }

    /// The key of a format that is exactly one `{{placeholder}}`, if it is one.
    static func soleParameter(of format: String) -> String? {
        let trimmed = format.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("{{"), trimmed.hasSuffix("}}"), trimmed.count > 4 else { return nil }
        let key = trimmed.dropFirst(2).dropLast(2)
        guard !key.contains("{"), !key.contains("}") else { return nil }
        return key.trimmingCharacters(in: .whitespaces)
    }

    /// Replaces every `{{key}}` with the escaped value (or nothing); unknown or unclosed braces are left out too,
    /// so no `{{…}}` ever reaches an app.
    static func fill(_ template: String, _ parameters: [String: String], escape allowed: Set<UInt8>) -> String {
        var output = ""
        var rest = Substring(template)
        while let open = rest.range(of: "{{") {
            output += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                rest = ""
                break
            }
            let key = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            output += escape(parameters[key] ?? "", allowed: allowed)
            rest = rest[close.upperBound...]
        }
        return output + rest
    }

    static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
    static let valueAllowed = unreserved
    static let pathAllowed = unreserved.union("@:".utf8)

    static func escape(_ value: String, allowed: Set<UInt8>) -> String {
        var output = ""
        for byte in value.utf8 {
            if allowed.contains(byte) {
                output.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                output += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return output
    }
}
