import LinkMatching
import LinkResolution

/// The outcome of one embedded test case of a manifest.
public struct RuleTestResult: Sendable, Equatable, Codable {
    /// Which kind of rule the case tests.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// An action format rendered by a template.
        case format
        /// An action format or browser rendered by a script.
        case script
        /// A browser rendered by a template.
        case browser
        /// A redirect rule test (the whole rule list applied).
        case redirect
    }

    /// Passed, failed or skipped.
    public enum Status: String, Sendable, Codable {
        /// The produced URL (or its absence) is the expected one.
        case passed
        /// The produced URL is not the expected one, or the case's rule is missing (see ``RuleTestResult/reason``).
        case failed
        /// Not run, for the reason given: a script case without an engine, or one that needs the network offline.
        case skipped
    }

    /// The kind of case.
    public var kind: Kind
    /// The status.
    public var status: Status
    /// The JSON pointer of the expected value (`/actions/0/formats/1/testResults/2`).
    public var location: String
    /// The test input.
    public var input: String
    /// The expected URL (nil: no URL expected).
    public var expected: String?
    /// The URL produced (nil: none).
    public var actual: String?
    /// Why the case failed or was skipped.
    public var reason: String?

    /// Creates a result.
    public init(
        kind: Kind,
        status: Status,
        location: String,
        input: String,
        expected: String?,
        actual: String?,
        reason: String? = nil
    ) {
        self.kind = kind
        self.status = status
        self.location = location
        self.input = input
        self.expected = expected
        self.actual = actual
        self.reason = reason
    }

    private enum CodingKeys: String, CodingKey { case kind, status, location, input, expected, actual, reason }

    /// Encodes every key, with explicit nulls, so consumers see the same shape for every case.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(status, forKey: .status)
        try container.encode(location, forKey: .location)
        try container.encode(input, forKey: .input)
        try container.encode(expected, forKey: .expected)
        try container.encode(actual, forKey: .actual)
        try container.encode(reason, forKey: .reason)
    }
}

/// All results of a test run, with totals.
public struct RuleTestReport: Sendable, Equatable, Codable {
    /// Cases that passed.
    public var passed: Int
    /// Cases that failed.
    public var failed: Int
    /// Cases that were not run, each with a reason.
    public var skipped: Int
    /// Every case in manifest order.
    public var results: [RuleTestResult]
    /// The user layer's own tests, when the rules have a layer (not counted in the totals above).
    public var userLayer: UserLayerTestReport? = nil

    /// Totals the results.
    public init(results: [RuleTestResult]) {
        self.results = results
        passed = results.count { $0.status == .passed }
        failed = results.count { $0.status == .failed }
        skipped = results.count { $0.status == .skipped }
    }

    /// Whether some case failed, the user layer's included.
    public var hasFailures: Bool { failed > 0 || (userLayer?.failed ?? 0) > 0 }

    /// Counts per kind and status, for summaries.
    public func count(_ kind: RuleTestResult.Kind, _ status: RuleTestResult.Status) -> Int {
        results.count { $0.kind == kind && $0.status == status }
    }
}

/// The user layer's own tests (its actions' and redirect rules' cases), reported beside the manifest's: locations are
/// pointers into the layer file.
public struct UserLayerTestReport: Sendable, Equatable, Codable {
    /// The layer file, when known.
    public var file: String?
    /// Cases that passed.
    public var passed: Int
    /// Cases that failed.
    public var failed: Int
    /// Cases that were not run, each with a reason.
    public var skipped: Int
    /// Every case in the layer's order.
    public var results: [RuleTestResult]

    /// The layer's report from its run.
    public init(file: String?, _ report: RuleTestReport) {
        self.file = file
        passed = report.passed
        failed = report.failed
        skipped = report.skipped
        results = report.results
    }
}
