import Foundation

/// An x-callback-url request: `scheme://x-callback-url/action?x-source=…&x-success=…&x-error=…&x-cancel=…&params`.
///
/// Building percent-encodes every value strictly and keeps the action parameters in the order given; parsing is
/// the inverse, so build → parse → build gives the same URL. Callback URLs are checked by a ``CallbackPolicy``.
public struct XCallbackRequest: Sendable, Equatable {
    /// The target app's URL scheme.
    public var scheme: String
    /// The action (the path after `x-callback-url/`).
    public var action: String
    /// `x-source`: the calling app's name.
    public var source: String?
    /// `x-success`: opened when the action succeeds, with result parameters appended.
    public var success: String?
    /// `x-error`: opened when it fails, with `errorCode` and `errorMessage`.
    public var error: String?
    /// `x-cancel`: opened when the user cancels.
    public var cancel: String?
    /// The action's own parameters, in order; a nil value is a parameter written without `=`.
    public var parameters: [Parameter]

    /// One action parameter.
    public struct Parameter: Sendable, Equatable, Codable {
        public var name: String
        public var value: String?

        public init(_ name: String, _ value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// The host every x-callback-url has.
    public static let host = "x-callback-url"
    static let reservedKeys = ["x-source", "x-success", "x-error", "x-cancel"]

    /// Creates a request; `x-` parameter names are reserved by the spec and refused.
    public init(
        scheme: String, action: String, source: String? = nil, success: String? = nil, error: String? = nil,
        cancel: String? = nil, parameters: [Parameter] = []
    ) throws(XCallbackURLError) {
        guard Self.isScheme(Substring(scheme)) else {
            throw XCallbackURLError(.badScheme, part: "scheme", "\"\(scheme)\" is not a URL scheme")
        }
        try Self.checkAction(action)
        for parameter in parameters where parameter.name.lowercased().hasPrefix("x-") {
            throw XCallbackURLError(.reservedParameter, part: parameter.name, "parameter names starting with \"x-\" are reserved by the x-callback-url spec")
        }
        self.scheme = scheme
        self.action = action
        self.source = source
        self.success = success
        self.error = error
        self.cancel = cancel
        self.parameters = parameters
    }

    /// The value of the first parameter called `name`.
    public subscript(parameter name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    /// The URL, after checking the callbacks against `policy`.
    public func url(policy: CallbackPolicy = .standard) throws(XCallbackURLError) -> String {
        var pairs: [String] = []
        for (key, value) in zip(Self.reservedKeys, [source, success, error, cancel]) {
            guard let value else { continue }
            if key != "x-source" { try policy.check(value, part: key) }
            pairs.append("\(key)=\(PercentEncoding.encode(value))")
        }
        for parameter in parameters {
            let name = PercentEncoding.encode(parameter.name)
            pairs.append(parameter.value.map { "\(name)=\(PercentEncoding.encode($0))" } ?? name)
        }
        let path = action.split(separator: "/").map { PercentEncoding.encode(String($0)) }.joined(separator: "/")
        return "\(scheme)://\(Self.host)/\(path)" + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&"))
    }

    static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
        }
    }

    static func checkAction(_ action: String) throws(XCallbackURLError) {
        let segments = action.split(separator: "/", omittingEmptySubsequences: false)
        guard !action.isEmpty, segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
            throw XCallbackURLError(.badAction, part: "action", "\"\(action)\" is not an action name (empty, or a '.'/'..' path segment)")
        }
    }
}

extension XCallbackRequest {
    /// Parses an x-callback-url; callbacks are checked against `policy`.
    public init(parsing url: String, policy: CallbackPolicy = .standard) throws(XCallbackURLError) {
        guard let schemeEnd = url.range(of: "://") else {
            throw XCallbackURLError(.notXCallbackURL, part: "url", "\"\(url.prefix(80))\" has no scheme://")
        }
        let scheme = String(url[..<schemeEnd.lowerBound])
        var rest = url[schemeEnd.upperBound...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        let query = rest.firstIndex(of: "?").map { rest[rest.index(after: $0)...] }
        let beforeQuery = rest.prefix { $0 != "?" }
        let host = beforeQuery.prefix { $0 != "/" }
        guard host.lowercased() == Self.host else {
            throw XCallbackURLError(.notXCallbackURL, part: "host", "the host is \"\(host)\", not \"x-callback-url\"")
        }
        let rawAction = beforeQuery.dropFirst(host.count).drop { $0 == "/" }
        guard let action = PercentEncoding.decode(rawAction) else {
            throw XCallbackURLError(.badEncoding, part: "action", "the action \"\(rawAction)\" has an invalid percent escape")
        }
        var source: String?, success: String?, error: String?, cancel: String?
        var parameters: [Parameter] = []
        for pair in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            // Split on the first "=" only: values may contain raw "=".
            let equals = pair.firstIndex(of: "=")
            let rawName = equals.map { pair[..<$0] } ?? pair
            guard let name = PercentEncoding.decode(rawName) else {
                throw XCallbackURLError(.badEncoding, part: String(rawName), "the parameter name has an invalid percent escape")
            }
            var value: String?
            if let equals {
                guard let decoded = PercentEncoding.decode(pair[pair.index(after: equals)...]) else {
                    throw XCallbackURLError(.badEncoding, part: name, "the value has an invalid percent escape")
                }
                value = decoded
            }
            switch name.lowercased() {
            case "x-source", "x-success", "x-error", "x-cancel":
                let key = name.lowercased()
                let slot = [source, success, error, cancel][Self.reservedKeys.firstIndex(of: key) ?? 0]
                guard slot == nil else {
                    throw XCallbackURLError(.duplicateParameter, part: key, "\(key) appears more than once, so which one to open is ambiguous")
                }
                let text = value ?? ""
                if key != "x-source" { try policy.check(text, part: key) }
                switch key {
                case "x-source": source = text
                case "x-success": success = text
                case "x-error": error = text
                default: cancel = text
                }
            default:
                parameters.append(Parameter(name, value))
            }
        }
        try self.init(scheme: scheme, action: action, source: source, success: success, error: error, cancel: cancel, parameters: parameters.filter { !$0.name.lowercased().hasPrefix("x-") })
    }
}

/// The JSON form shared by `switchyard xcallback parse --json` and the HTTP API:
/// `{"scheme", "action", "source", "success", "error", "cancel", "parameters": [{"name", "value"}]}`.
extension XCallbackRequest: Encodable {
    private enum CodingKeys: String, CodingKey {
        case scheme, action, source, success, error, cancel, parameters
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scheme, forKey: .scheme)
        try container.encode(action, forKey: .action)
        try container.encodeIfPresent(source, forKey: .source)
        try container.encodeIfPresent(success, forKey: .success)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encodeIfPresent(cancel, forKey: .cancel)
        try container.encode(parameters, forKey: .parameters)
    }
}
