/// An x-callback-url request: `scheme://x-callback-url/action?x-source=…&x-success=…&x-error=…&x-cancel=…&…`.
///
/// Building percent-encodes every value strictly (only RFC 3986 unreserved characters stay bare) and keeps the
/// action parameters in the order given; parsing decodes exactly once, so build → parse → build gives the same
/// URL. Callback URLs are checked by a ``CallbackPolicy`` when building and when parsing.
public struct XCallbackRequest: Sendable, Equatable {
    /// The target app's URL scheme.
    public var scheme: String
    /// The action (the path after `x-callback-url/`).
    public var action: String
    /// `x-source`: the calling app's friendly name.
    public var source: String?
    /// `x-success`: opened when the action succeeds, with result parameters appended.
    public var success: String?
    /// `x-error`: opened when it fails, with `errorCode` and `errorMessage` appended.
    public var error: String?
    /// `x-cancel`: opened when the user cancels.
    public var cancel: String?
    /// The action's own parameters, in order; a nil value is a parameter written without `=`.
    public var parameters: [Parameter]

    /// One action (or result) parameter.
    public struct Parameter: Sendable, Equatable, Hashable {
        /// The name, decoded.
        public var name: String
        /// The value, decoded; nil when the parameter was written without `=` (`?flag`), "" for `?flag=`.
        public var value: String?

        /// Creates a parameter.
        public init(_ name: String, _ value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// The host every x-callback-url has.
    public static let host = "x-callback-url"
    /// The spec's parameters, in the order a built URL writes them.
    static let reservedKeys = ["x-source", "x-success", "x-error", "x-cancel"]
    /// The spec's parameters that hold callback URLs.
    static let callbackKeys: Set<String> = ["x-success", "x-error", "x-cancel"]

    /// Creates a request; throws when the scheme or action is invalid or a parameter name is empty or starts with
    /// `x-` (reserved by the spec). Callbacks are checked when the URL is built (``url(policy:)``).
    public init(
        scheme: String,
        action: String,
        source: String? = nil,
        success: String? = nil,
        error: String? = nil,
        cancel: String? = nil,
        parameters: [Parameter] = []
    ) throws(XCallbackURLError) {
        guard Self.isScheme(Substring(scheme)) else {
            throw XCallbackURLError(.badScheme, part: "scheme", "\"\(scheme.prefix(80))\" is not a URL scheme")
        }
        try Self.checkAction(action)
        for parameter in parameters {
            if parameter.name.isEmpty {
                throw XCallbackURLError(.badParameter, part: "parameters", "an action parameter has an empty name")
            }
            if parameter.name.lowercased().hasPrefix("x-") {
                throw XCallbackURLError(
                    .reservedParameter,
                    part: parameter.name,
                    "the parameter name \"\(parameter.name.prefix(80))\" starts with \"x-\", reserved by the spec"
                )
            }
        }
        self.scheme = scheme
        self.action = action
        self.source = source
        self.success = success
        self.error = error
        self.cancel = cancel
        self.parameters = parameters
    }

    /// The value of the first parameter called `name` (nil when absent or written without `=`).
    public subscript(parameter name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    /// The URL, after checking the callbacks against `policy`: spec parameters first (`x-source`, `x-success`,
    /// `x-error`, `x-cancel`), then the action parameters in their order.
    public func url(policy: CallbackPolicy = .standard) throws(XCallbackURLError) -> String {
        var pairs: [String] = []
        for (key, value) in zip(Self.reservedKeys, [source, success, error, cancel]) {
            guard let value else { continue }
            if key != "x-source" { try policy.check(value, part: key) }
            pairs.append("\(key)=\(PercentEncoding.encode(value))")
        }
        pairs += parameters.map(PercentEncoding.pair)
        let path = action.split(separator: "/", omittingEmptySubsequences: false).map { PercentEncoding.encode($0) }
        return "\(scheme)://\(Self.host)/\(path.joined(separator: "/"))"
            + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&"))
    }

    /// RFC 3986: a letter, then letters, digits, `+`, `-`, `.`.
    static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
        }
    }

    /// Refuses empty actions and `.`/`..`/empty segments, so a handler's name cannot be reached by path tricks.
    static func checkAction(_ action: String) throws(XCallbackURLError) {
        let segments = action.split(separator: "/", omittingEmptySubsequences: false)
        guard !action.isEmpty, segments.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else {
            throw XCallbackURLError(
                .badAction,
                part: "action",
                "\"\(action.prefix(80))\" is not an action name (empty, or an empty, '.' or '..' path segment)"
            )
        }
        guard !action.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw XCallbackURLError(
                .badAction,
                part: "action",
                "the action \"\(action.prefix(80))\" contains a control character"
            )
        }
    }
}
