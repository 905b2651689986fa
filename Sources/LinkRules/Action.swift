/// A web-link rule: a regex and the formats that turn a matching link into app links.
public struct Action: Sendable, Equatable {
    /// The title Opener shows when the manifest gives none.
    public static let defaultTitle = "Open Link"

    /// The user-facing title ("Open Link" when the manifest has none; see ``hasTitle``).
    public var title: String
    /// Whether the manifest gave a title.
    public var hasTitle: Bool
    /// The ICU regular expression matched anywhere in the input.
    public var regex: String
    /// Whether the input is `URL + "\n" + compact JSON of the response headers`.
    public var headers: Bool
    /// Test inputs; each format's `testResults` line up with them.
    public var testInputs: [String]
    /// The apps this action opens in, in file order.
    public var formats: [Format]
    /// Keys Switchyard does not use, kept for tools.
    public var extras: [JSONMember]
    /// Where the action was defined (`/actions/12`).
    public var pointer: JSONPointer

    /// Creates an action.
    public init(
        title: String? = nil,
        regex: String,
        headers: Bool = false,
        testInputs: [String] = [],
        formats: [Format] = [],
        extras: [JSONMember] = [],
        pointer: JSONPointer = .root
    ) {
        self.title = title ?? Self.defaultTitle
        self.hasTitle = title != nil
        self.regex = regex
        self.headers = headers
        self.testInputs = testInputs
        self.formats = formats
        self.extras = extras
        self.pointer = pointer
    }
}

/// One app's output for an action.
public struct Format: Sendable, Equatable {
    /// The identifier of the app (from `appId`, `appIdentifier` or the inline `app`).
    public var appId: String
    /// An app defined inline in the format (the real v5 manifest has one), instead of in `apps`.
    public var inlineApp: App?
    /// The output fields as written.
    public var fields: OutputFields
    /// Expected results for the action's test inputs; `nil` entries mean "must not produce a URL".
    public var testResults: [String?]?
    /// Keys Switchyard does not use, kept for tools.
    public var extras: [JSONMember]
    /// Where the format was defined (`/actions/12/formats/1`).
    public var pointer: JSONPointer

    /// Creates a format.
    public init(
        appId: String,
        inlineApp: App? = nil,
        fields: OutputFields,
        testResults: [String?]? = nil,
        extras: [JSONMember] = [],
        pointer: JSONPointer = .root
    ) {
        self.appId = appId
        self.inlineApp = inlineApp
        self.fields = fields
        self.testResults = testResults
        self.extras = extras
        self.pointer = pointer
    }
}

/// An app that can open any http(s) link: an app, a regex and one output.
public struct Browser: Sendable, Equatable {
    /// The browser as an app (identifier, name, scheme, store ids …).
    public var app: App
    /// The regex matched against the link.
    public var regex: String
    /// The output fields as written.
    public var fields: OutputFields
    /// Test inputs.
    public var testInputs: [String]
    /// Expected results, one per input.
    public var testResults: [String?]?
    /// Where the browser was defined (`/browsers/2`).
    public var pointer: JSONPointer

    /// Creates a browser.
    public init(
        app: App,
        regex: String,
        fields: OutputFields,
        testInputs: [String] = [],
        testResults: [String?]? = nil,
        pointer: JSONPointer = .root
    ) {
        self.app = app
        self.regex = regex
        self.fields = fields
        self.testInputs = testInputs
        self.testResults = testResults
        self.pointer = pointer
    }
}

/// A rule that gives a preview image URL for a link.
public struct Preview: Sendable, Equatable {
    /// The regex matched against the link.
    public var regex: String
    /// The output fields as written.
    public var fields: OutputFields
    /// Whether the preview image may be saved.
    public var canSave: Bool
    /// Keys Switchyard does not use, kept for tools.
    public var extras: [JSONMember]
    /// Where the preview was defined (`/previews/0`).
    public var pointer: JSONPointer

    /// Creates a preview rule.
    public init(
        regex: String,
        fields: OutputFields,
        canSave: Bool = false,
        extras: [JSONMember] = [],
        pointer: JSONPointer = .root
    ) {
        self.regex = regex
        self.fields = fields
        self.canSave = canSave
        self.extras = extras
        self.pointer = pointer
    }
}

/// A static redirect rule: links matching `pattern` at their start are replaced before matching actions.
public struct RedirectRule: Sendable, Equatable {
    /// How the replacement URL is obtained.
    public enum Target: Sendable, Equatable {
        /// The value of this query parameter, percent-decoded.
        case param(String)
        /// A regex template applied to the link (percent-decoded when the result has no host).
        case format(String)
    }

    /// The regex (the key in the `redirects` object).
    public var pattern: String
    /// What the link becomes.
    public var target: Target
    /// Sample inputs and the URL the whole rule list must turn each into.
    public var tests: [RedirectTest]
    /// Keys Switchyard does not use, kept for tools.
    public var extras: [JSONMember]
    /// Where the rule was defined (`/redirects/<escaped pattern>`).
    public var pointer: JSONPointer

    /// Creates a rule.
    public init(
        pattern: String,
        target: Target,
        tests: [RedirectTest] = [],
        extras: [JSONMember] = [],
        pointer: JSONPointer = .root
    ) {
        self.pattern = pattern
        self.target = target
        self.tests = tests
        self.extras = extras
        self.pointer = pointer
    }
}

/// One redirect test: the input and the expected result of the whole redirect list.
public struct RedirectTest: Sendable, Equatable {
    /// The input link.
    public var input: String
    /// The expected URL.
    public var expected: String

    /// Creates a test.
    public init(input: String, expected: String) {
        self.input = input
        self.expected = expected
    }
}
