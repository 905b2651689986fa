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

    /// Decodes a request: a ``Patch`` (every field optional; they have their JSON types, or are all text when
    /// ``textFieldsKey`` says so) applied to the request under ``defaultsKey``, or the default request. A value of the
    /// wrong type is a `DecodingError` with its coding path; a value out of its range throws ``ResolveRequestError``
    /// naming the field.
    public init(from decoder: any Decoder) throws {
        let defaults = decoder.userInfo[Self.defaultsKey] as? ResolveRequest ?? ResolveRequest()
        self = try Patch(from: decoder).applied(to: defaults)
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

/// Reads one field of a patch: its JSON type from a JSON container, or text (a text container, or the fields a
/// caller gives as text).
private struct FieldReader {
    enum Source {
        case json(KeyedDecodingContainer<ResolveRequest.Field>)
        case text(KeyedDecodingContainer<ResolveRequest.Field>)
        case fields([ResolveRequest.Field: String])
    }

    let source: Source

    func text(_ field: ResolveRequest.Field) throws -> String? {
        switch source {
        case .json(let container), .text(let container): try container.decodeIfPresent(String.self, forKey: field)
        case .fields(let fields): fields[field]
        }
    }

    /// The container to decode a typed value from, nil when the fields are text.
    private var json: KeyedDecodingContainer<ResolveRequest.Field>? {
        if case .json(let container) = source { return container }
        return nil
    }

    func installed() throws -> InstalledApps? {
        if let json { return try json.decodeIfPresent([String].self, forKey: .installed).map { InstalledApps($0) } }
        return try text(.installed).map { InstalledApps(list: $0) }
    }

    func platform() throws -> Platform? {
        guard let text = try text(.platform) else { return nil }
        do {
            return try Platform(parsing: text)
        } catch {
            throw ResolveRequestError(.platform, value: text, requirement: "takes phone or pad")
        }
    }

    func headers() throws -> HTTPFields? {
        switch source {
        case .json(let container), .text(let container):
            return try container.decodeIfPresent(HTTPFields.self, forKey: .headers)
        case .fields(let fields):
            guard let value = fields[.headers] else { return nil }
            throw ResolveRequestError(.headers, value: value, requirement: "takes an object of header fields, not text")
        }
    }

    func bool(_ field: ResolveRequest.Field) throws -> Bool? {
        if let json { return try json.decodeIfPresent(Bool.self, forKey: field) }
        switch try text(field) {
        case nil: return nil
        case "true": return true
        case "false": return false
        case let value?: throw ResolveRequestError(field, value: value, requirement: "takes true or false")
        }
    }

    func number(_ field: ResolveRequest.Field) throws -> Double? {
        if let json { return try json.decodeIfPresent(Double.self, forKey: field) }
        guard let text = try text(field) else { return nil }
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)) else {
            throw ResolveRequestError(field, value: text, requirement: "takes a number")
        }
        return value
    }
}

extension ResolveRequest {
    /// A change to a request, field by field (nil: keep the request's value): what every front end makes and applies
    /// once to its defaults with ``applied(to:)``, where each value is checked. The command line builds one from its
    /// typed options; the HTTP query string (text fields) and a batch body (JSON types) decode one through ``Field``.
    public struct Patch: Sendable, Hashable, Decodable {
        /// ``Field/installed``.
        public var installed: InstalledApps?
        /// ``Field/platform``.
        public var platform: Platform?
        /// ``Field/source``: checked to be a bundle identifier.
        public var source: String?
        /// ``Field/headers``.
        public var headers: HTTPFields?
        /// ``Field/browsers``.
        public var browsers: Bool?
        /// ``Field/previews``.
        public var previews: Bool?
        /// ``Field/regexTimeLimit``, in seconds (at least 0.001, at most 60).
        public var regexTimeLimit: Double?
        /// ``Field/regexTimeShare``, in seconds (at least 0.001, at most 600).
        public var regexTimeShare: Double?
        /// ``Field/scripts``.
        public var scripts: Bool?
        /// ``Field/timeout``, in seconds (``ResolveRequest/validTimeLimits``).
        public var timeout: Double?
        /// ``Field/trace``.
        public var trace: Bool?
        /// ``Field/maximumLinkLength``, a whole number of UTF-8 bytes from 1 to 1,048,576.
        public var maximumLinkLength: Double?
        /// ``Field/clean``.
        public var clean: Bool?
        /// ``Field/referralMarketing``.
        public var referralMarketing: Bool?
        /// ``Field/claims``.
        public var claims: Bool?
        /// ``Field/openWrapped``.
        public var openWrapped: Bool?
        /// ``Field/followPages``.
        public var followPages: Bool?
        /// ``Field/refreshDelay``, whole seconds from 0 to 3600.
        public var refreshDelay: Double?

        /// A patch that changes nothing.
        public init() {}

        /// Decodes a patch: fields of their JSON types, or all text when the decoder's ``ResolveRequest/textFieldsKey``
        /// says so.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Field.self)
            let isText = decoder.userInfo[ResolveRequest.textFieldsKey] as? Bool ?? false
            try self.init(FieldReader(source: isText ? .text(container) : .json(container)))
        }

        /// A patch of fields given as text, as a query string gives them (`installed=a,b`, `clean=false`).
        public init(text fields: [Field: String]) throws(ResolveRequestError) {
            do {
                try self.init(FieldReader(source: .fields(fields)))
            } catch let error as ResolveRequestError {
                throw error
            } catch {
                // Text fields throw nothing else; should one, its first field is named rather than trapping.
                let field = fields.keys.sorted { $0.stringValue < $1.stringValue }.first ?? .timeout
                throw ResolveRequestError(field, value: fields[field] ?? "", requirement: "cannot be read")
            }
        }

        private init(_ reader: FieldReader) throws {
            installed = try reader.installed()
            platform = try reader.platform()
            source = try reader.text(.source)
            headers = try reader.headers()
            browsers = try reader.bool(.browsers)
            previews = try reader.bool(.previews)
            regexTimeLimit = try reader.number(.regexTimeLimit)
            regexTimeShare = try reader.number(.regexTimeShare)
            scripts = try reader.bool(.scripts)
            timeout = try reader.number(.timeout)
            trace = try reader.bool(.trace)
            maximumLinkLength = try reader.number(.maximumLinkLength)
            clean = try reader.bool(.clean)
            referralMarketing = try reader.bool(.referralMarketing)
            claims = try reader.bool(.claims)
            openWrapped = try reader.bool(.openWrapped)
            followPages = try reader.bool(.followPages)
            refreshDelay = try reader.number(.refreshDelay)
        }

        /// `request` with every field this patch sets, each checked: a value out of its range throws
        /// ``ResolveRequestError`` naming its field.
        public func applied(to request: ResolveRequest) throws(ResolveRequestError) -> ResolveRequest {
            var request = request
            if let installed { request.match.installed = installed }
            if let platform { request.match.platform = platform }
            if let source {
                guard SourceAppPattern.isSourceApp(source) else {
                    throw ResolveRequestError(
                        .source,
                        value: source,
                        requirement:
                            "takes the bundle identifier of the app the link came from, such as com.tinyspeck.chatlyio"
                    )
                }
                request.match.sourceApp = source
            }
            if let headers { request.match.headers = headers }
            if let browsers { request.match.includeBrowsers = browsers }
            if let previews { request.match.includePreviews = previews }
            if let regexTimeLimit {
                request.match.budget.perRegex = try Self.seconds(
                    regexTimeLimit,
                    .regexTimeLimit,
                    in: .milliseconds(1) ... .seconds(60)
                )
            }
            if let regexTimeShare {
                request.match.budget.perResolution = try Self.seconds(
                    regexTimeShare,
                    .regexTimeShare,
                    in: .milliseconds(1) ... .seconds(600)
                )
            }
            if let scripts { request.runsScripts = scripts }
            if let timeout {
                request.timeLimit = try Self.seconds(timeout, .timeout, in: ResolveRequest.validTimeLimits)
            }
            if let trace { request.trace = trace }
            if let maximumLinkLength {
                request.maximumLinkLength = try Self.integer(maximumLinkLength, .maximumLinkLength, in: 1...(1 << 20))
            }
            if let clean { request.cleansLinks = clean }
            if let referralMarketing { request.allowsReferralMarketing = referralMarketing }
            if let claims { request.includesClaims = claims }
            if let openWrapped { request.match.opensWrapped = openWrapped }
            if let followPages { request.followsPages = followPages }
            if let refreshDelay {
                request.maximumRefreshDelay = try Self.integer(refreshDelay, .refreshDelay, in: 0...3600)
            }
            return request
        }

        private static func seconds(
            _ seconds: Double,
            _ field: Field,
            in range: ClosedRange<Duration>
        ) throws(ResolveRequestError) -> Duration {
            guard let duration = Duration.seconds(seconds, within: range) else {
                throw ResolveRequestError(
                    field,
                    value: ResolveRequest.text(seconds),
                    requirement: ResolveRequest.secondsRequirement(range)
                )
            }
            return duration
        }

        private static func integer(
            _ value: Double,
            _ field: Field,
            in range: ClosedRange<Int>
        ) throws(ResolveRequestError) -> Int {
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
    /// Decodes a request from its fields as text, as the query string gives them, starting from `defaults`: the
    /// ``Patch`` of those fields applied to `defaults`.
    public init(fields: [Field: String], defaults: ResolveRequest = ResolveRequest()) throws(ResolveRequestError) {
        self = try Patch(text: fields).applied(to: defaults)
    }
}
