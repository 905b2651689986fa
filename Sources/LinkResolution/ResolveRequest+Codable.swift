import Foundation
import HTTPTypes
import LinkMatching
import LinkRules

extension ResolveRequest: Codable {
    /// The request's fields as every front end spells them: the query string's parameter names, the batch body's
    /// keys, the canonical encoding's keys (the CLI's options map to them one to one).
    public enum Field: String, CodingKey, CaseIterable, Sendable {
        /// `MatchOptions.installed`: URL schemes, a list (JSON) or comma-separated (query, CLI).
        case installed
        /// `MatchOptions.platform`: `phone` or `pad`.
        case platform
        /// `MatchOptions.sourceApp`: the bundle identifier of the app the link came from.
        case source
        /// `MatchOptions.headers`: the link's response headers, for `headers` rules (not looked up when given).
        case headers
        /// `MatchOptions.includeBrowsers`.
        case browsers
        /// `MatchOptions.includePreviews`.
        case previews
        /// `MatchBudget.perRegex`, in seconds.
        case regexTimeLimit
        /// `MatchBudget.perResolution`, in seconds.
        case regexTimeShare
        /// ``ResolveRequest/runsScripts``.
        case scripts
        /// ``ResolveRequest/timeLimit``, in seconds.
        case timeout
        /// ``ResolveRequest/trace``.
        case trace
        /// ``ResolveRequest/maximumLinkLength``, in UTF-8 bytes.
        case maximumLinkLength
        /// ``ResolveRequest/cleansLinks``.
        case clean
        /// ``ResolveRequest/allowsReferralMarketing``.
        case referralMarketing
        /// ``ResolveRequest/includesClaims``.
        case claims
        /// `MatchOptions.opensWrapped`: whether browser openings of a wrapped link open the wrapped link (absent: the
        /// user layer's `openWrapped`, else the inner link).
        case openWrapped
        /// ``ResolveRequest/followsPages``: read every page on the way for a meta refresh (absent: bounce hosts only).
        case followPages
        /// ``ResolveRequest/maximumRefreshDelay``: the longest refresh delay followed, whole seconds, 0 to 3600 (absent:
        /// 5).
        case refreshDelay
    }

    /// The `userInfo` key of the request a decoder starts from (a ``ResolveRequest``): a server gives its own time
    /// limit and link length limit; without one, ``init(match:runsScripts:timeLimit:trace:maximumLinkLength:)``'s
    /// defaults.
    public static let defaultsKey = CodingUserInfoKey(rawValue: "switchyard.resolveRequest.defaults")!

    /// The `userInfo` key that says the fields are text (`true`), as a query string and the command line give them:
    /// `clean=false`, `timeout=2.5`, `installed=a,b`. Without it, each field has its JSON type (a batch body).
    public static let textFieldsKey = CodingUserInfoKey(rawValue: "switchyard.resolveRequest.textFields")!

    /// Decodes a request; every field is optional (a missing one keeps the value of the request under ``defaultsKey``,
    /// or the default). Fields have their JSON types (`installed` a list, `clean` a boolean, `timeout` a number of
    /// seconds), or are all text when ``textFieldsKey`` says so (`installed` comma-separated). A value of the wrong type
    /// is a `DecodingError` with its coding path; a value out of its range throws ``ResolveRequestError`` naming the
    /// field.
    public init(from decoder: any Decoder) throws {
        self = decoder.userInfo[Self.defaultsKey] as? ResolveRequest ?? ResolveRequest()
        let container = try decoder.container(keyedBy: Field.self)
        let reader = FieldReader(container: container, isText: decoder.userInfo[Self.textFieldsKey] as? Bool ?? false)
        if let installed = try reader.list(.installed) { match.installed = InstalledApps(installed) }
        if let platform = try reader.text(.platform) {
            do {
                match.platform = try Platform(parsing: platform)
            } catch {
                throw ResolveRequestError(.platform, value: platform, requirement: "takes phone or pad")
            }
        }
        if let source = try reader.text(.source) {
            guard SourceAppPattern.isSourceApp(source) else {
                throw ResolveRequestError(
                    .source,
                    value: source,
                    requirement:
                        "takes the bundle identifier of the app the link came from, such as com.tinyspeck.chatlyio"
                )
            }
            match.sourceApp = source
        }
        if let headers = try container.decodeIfPresent(HTTPFields.self, forKey: .headers) { match.headers = headers }
        if let value = try reader.bool(.browsers) { match.includeBrowsers = value }
        if let value = try reader.bool(.previews) { match.includePreviews = value }
        if let seconds = try reader.seconds(.regexTimeLimit, in: .milliseconds(1) ... .seconds(60)) {
            match.budget.perRegex = seconds
        }
        if let seconds = try reader.seconds(.regexTimeShare, in: .milliseconds(1) ... .seconds(600)) {
            match.budget.perResolution = seconds
        }
        if let value = try reader.bool(.scripts) { runsScripts = value }
        if let seconds = try reader.seconds(.timeout, in: Self.validTimeLimits) { timeLimit = seconds }
        if let value = try reader.bool(.trace) { trace = value }
        if let length = try reader.integer(.maximumLinkLength, in: 1...(1 << 20)) { maximumLinkLength = length }
        if let value = try reader.bool(.clean) { cleansLinks = value }
        if let value = try reader.bool(.referralMarketing) { allowsReferralMarketing = value }
        if let value = try reader.bool(.claims) { includesClaims = value }
        if let value = try reader.bool(.openWrapped) { match.opensWrapped = value }
        if let value = try reader.bool(.followPages) { followsPages = value }
        if let seconds = try reader.integer(.refreshDelay, in: 0...3600) { maximumRefreshDelay = seconds }
    }

    /// Encodes every field, in ``Field`` order, lists sorted (the optional ones when set): the canonical form a
    /// ``CacheKey`` is made from.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Field.self)
        for field in Field.allCases {
            switch field {
            case .installed: try container.encodeIfPresent(match.installed?.schemes.sorted(), forKey: field)
            case .platform: try container.encodeIfPresent(match.platform?.rawValue, forKey: field)
            case .source: try container.encodeIfPresent(match.sourceApp, forKey: field)
            case .headers: try container.encodeIfPresent(match.headers, forKey: field)
            case .browsers: try container.encode(match.includeBrowsers, forKey: field)
            case .previews: try container.encode(match.includePreviews, forKey: field)
            case .regexTimeLimit: try container.encode(match.budget.perRegex.seconds, forKey: field)
            case .regexTimeShare: try container.encode(match.budget.perResolution.seconds, forKey: field)
            case .scripts: try container.encode(runsScripts, forKey: field)
            case .timeout: try container.encode(timeLimit.seconds, forKey: field)
            case .trace: try container.encode(trace, forKey: field)
            case .maximumLinkLength: try container.encode(maximumLinkLength, forKey: field)
            case .clean: try container.encode(cleansLinks, forKey: field)
            case .referralMarketing: try container.encode(allowsReferralMarketing, forKey: field)
            case .claims: try container.encode(includesClaims, forKey: field)
            // Only when said: a request that does not say is the one it always was (and keeps its cache key).
            case .openWrapped: try container.encodeIfPresent(match.opensWrapped, forKey: field)
            case .followPages: try container.encodeIfPresent(followsPages, forKey: field)
            case .refreshDelay: try container.encodeIfPresent(maximumRefreshDelay, forKey: field)
            }
        }
    }

    /// The canonical encoding: compact JSON, keys sorted.
    public var canonicalEncoding: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every field is a string, number, boolean or list of them: encoding cannot fail.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Checks a time limit given in seconds (`--timeout`, `serve --timeout`, `timeout=`) as every front end does.
    public static func timeLimit(seconds: Double) throws(ResolveRequestError) -> Duration {
        guard let limit = Duration.seconds(seconds, within: validTimeLimits) else {
            throw ResolveRequestError(
                .timeout,
                value: Self.text(seconds),
                requirement: secondsRequirement(validTimeLimits)
            )
        }
        return limit
    }

    /// What a field of seconds takes, from its range: `takes seconds, at least 0.001 and at most 600` (times are kept
    /// to the millisecond, so the least is 0.001, not "more than 0").
    static func secondsRequirement(_ range: ClosedRange<Duration>) -> String {
        "takes seconds, at least \(text(range.lowerBound.seconds)) and at most \(text(range.upperBound.seconds))"
    }

    /// A number as a person wrote it: `15`, not `15.0`.
    package static func text(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

/// Reads one field of a request: its JSON type, or text (`isText`).
private struct FieldReader {
    let container: KeyedDecodingContainer<ResolveRequest.Field>
    let isText: Bool

    func text(_ field: ResolveRequest.Field) throws -> String? {
        try container.decodeIfPresent(String.self, forKey: field)
    }

    func list(_ field: ResolveRequest.Field) throws -> [String]? {
        guard isText else { return try container.decodeIfPresent([String].self, forKey: field) }
        return try text(field).map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    func bool(_ field: ResolveRequest.Field) throws -> Bool? {
        guard isText else { return try container.decodeIfPresent(Bool.self, forKey: field) }
        switch try text(field) {
        case nil: return nil
        case "true": return true
        case "false": return false
        case let value?: throw ResolveRequestError(field, value: value, requirement: "takes true or false")
        }
    }

    func number(_ field: ResolveRequest.Field) throws -> Double? {
        guard isText else { return try container.decodeIfPresent(Double.self, forKey: field) }
        guard let text = try text(field) else { return nil }
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)) else {
            throw ResolveRequestError(field, value: text, requirement: "takes a number")
        }
        return value
    }

    func seconds(_ field: ResolveRequest.Field, in range: ClosedRange<Duration>) throws -> Duration? {
        guard let seconds = try number(field) else { return nil }
        guard let duration = Duration.seconds(seconds, within: range) else {
            throw ResolveRequestError(
                field,
                value: ResolveRequest.text(seconds),
                requirement: ResolveRequest.secondsRequirement(range)
            )
        }
        return duration
    }

    func integer(_ field: ResolveRequest.Field, in range: ClosedRange<Int>) throws -> Int? {
        guard let value = try number(field) else { return nil }
        guard let integer = Int(exactly: value), range.contains(integer) else {
            throw ResolveRequestError(
                field,
                value: ResolveRequest.text(value),
                requirement: "takes a whole number from \(range.lowerBound) to \(range.upperBound)"
            )
        }
        return integer
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// A duration of `seconds`, or nil when it is not a finite number a `Duration` can hold.
    static func seconds(exactly seconds: Double) -> Duration? {
        guard seconds.isFinite, abs(seconds) < 1e12 else { return nil }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// A duration of `seconds`, kept to the millisecond, when the number as given lies within `range` (its bounds
    /// exact: 0.0005 is not at least 0.001, though it rounds to it), else nil.
    static func seconds(_ seconds: Double, within range: ClosedRange<Duration>) -> Duration? {
        guard seconds.isFinite, seconds >= range.lowerBound.seconds, seconds <= range.upperBound.seconds else {
            return nil
        }
        return Duration.seconds(exactly: seconds)
    }
}

extension ResolveRequest {
    /// Decodes a request from its fields as text, as the query string gives them (the CLI's options come through
    /// here), starting from `defaults`.
    public init(fields: [Field: String], defaults: ResolveRequest = ResolveRequest()) throws(ResolveRequestError) {
        let object = Dictionary(uniqueKeysWithValues: fields.map { ($0.key.stringValue, $0.value) })
        let decoder = JSONDecoder()
        decoder.userInfo = [Self.defaultsKey: defaults, Self.textFieldsKey: true]
        do {
            self = try decoder.decode(ResolveRequest.self, from: JSONSerialization.data(withJSONObject: object))
        } catch let error as ResolveRequestError {
            throw error
        } catch {
            // Every field is text, which is what the decoder reads in this mode: this cannot fail. Should it ever,
            // the first field is named rather than trapping.
            let field = fields.keys.sorted { $0.stringValue < $1.stringValue }.first ?? .timeout
            throw ResolveRequestError(field, value: fields[field] ?? "", requirement: "cannot be read")
        }
    }
}
