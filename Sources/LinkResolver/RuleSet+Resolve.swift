import Foundation
import LinkRules

/// What to list for a link.
public struct ResolveOptions: Sendable, Equatable {
    /// The installed apps' schemes; when set, only openings in those apps are listed (as Opener does).
    public var installedSchemes: Set<String>?
    /// The device family; apps limited to the other one are dropped.
    public var platform: Platform?
    /// Response headers of the link, for actions with `headers` (name/value pairs in server order).
    public var headers: [(name: String, value: String)]?
    /// Whether browsers are listed.
    public var includeBrowsers: Bool
    /// Whether previews are listed.
    public var includePreviews: Bool

    /// Creates options.
    public init(
        installedSchemes: Set<String>? = nil, platform: Platform? = nil,
        headers: [(name: String, value: String)]? = nil, includeBrowsers: Bool = true, includePreviews: Bool = true
    ) {
        self.installedSchemes = installedSchemes
        self.platform = platform
        self.headers = headers
        self.includeBrowsers = includeBrowsers
        self.includePreviews = includePreviews
    }

    public static func == (lhs: ResolveOptions, rhs: ResolveOptions) -> Bool {
        lhs.installedSchemes == rhs.installedSchemes && lhs.platform == rhs.platform
            && lhs.includeBrowsers == rhs.includeBrowsers && lhs.includePreviews == rhs.includePreviews
            && lhs.headers?.map(\.name) == rhs.headers?.map(\.name) && lhs.headers?.map(\.value) == rhs.headers?.map(\.value)
    }

    func allows(_ app: App) -> Bool {
        if let installedSchemes, !installedSchemes.contains(app.scheme.lowercased()) { return false }
        if let platform, let limited = app.platform, limited != platform { return false }
        return true
    }
}

extension RuleSet {
    /// Resolves a link synchronously: redirect rules, then every matching action × format in manifest order, every
    /// matching browser, every preview. Templates are rendered; script outputs are listed with `needsScript`.
    public func resolve(_ link: String, options: ResolveOptions = ResolveOptions()) -> Resolution {
        let (unwrapped, steps) = applyRedirects(to: link)
        return Resolution(input: link, unwrapped: unwrapped, steps: steps, openings: openings(for: unwrapped, options: options))
    }

    /// The openings for an already unwrapped link.
    public func openings(for link: String, options: ResolveOptions = ResolveOptions()) -> [Opening] {
        var result: [Opening] = []
        let headerInput = options.headers.map { link + "\n" + Self.compactJSON($0) }
        for compiled in actions {
            let input = compiled.action.headers ? (headerInput ?? link) : link
            let formats = compiled.formats.filter { options.allows($0.app) }
            guard !formats.isEmpty, compiled.regex.matches(input) else { continue }
            for format in formats {
                result.append(render(format.output, regex: compiled.regex, input: input, kind: .action, app: format.app, title: compiled.action.title, rule: format.format.pointer))
            }
        }
        if options.includeBrowsers {
            for compiled in browsers where options.allows(compiled.browser.app) && compiled.regex.matches(link) {
                result.append(render(compiled.output, regex: compiled.regex, input: link, kind: .browser, app: compiled.browser.app, title: compiled.browser.app.name, rule: compiled.browser.pointer))
            }
        }
        if options.includePreviews {
            for compiled in previews where compiled.regex.matches(link) {
                result.append(render(compiled.output, regex: compiled.regex, input: link, kind: .preview, app: nil, title: "Preview", rule: compiled.preview.pointer))
            }
        }
        return result
    }

    func render(_ output: Output, regex: CompiledRegex, input: String, kind: Opening.Kind, app: App?, title: String, rule: JSONPointer) -> Opening {
        switch output {
        case .template(let template):
            let url = regex.replacingMatches(in: input, with: template)
            let safe = OutputSafety.problem(with: url) == nil
            return Opening(kind: kind, app: app.map(OpeningApp.init), title: title, url: safe ? url : nil, needsScript: false, rule: rule.description, scriptError: safe ? nil : OutputSafety.problem(with: url))
        case .script:
            return Opening(kind: kind, app: app.map(OpeningApp.init), title: title, url: nil, needsScript: true, rule: rule.description)
        }
    }

    /// Compact JSON of response headers, keys in the given order (what `headers` actions match against).
    static func compactJSON(_ headers: [(name: String, value: String)]) -> String {
        "{" + headers.map { "\(jsonString($0.name)):\(jsonString($0.value))" }.joined(separator: ",") + "}"
    }

    static func jsonString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20: result += String(format: "\\u%04x", scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
