import Foundation

/// An ICU regular expression compiled once, with the exact matching and template semantics Opener uses.
///
/// `NSRegularExpression` is immutable and documented as safe to use from many threads at once, hence
/// `@unchecked Sendable`.
public struct CompiledRegex: @unchecked Sendable {
    /// The pattern as written in the manifest.
    public let pattern: String
    /// The number of capture groups.
    public let groupCount: Int
    let expression: NSRegularExpression
    #if canImport(CICU)
    /// The same pattern in ICU's C API, for the resolver's hot path (nil: only Foundation's is used).
    let direct: ICUPattern?
    #endif

    /// Compiles `pattern` with ICU; throws the ICU error text.
    public init(_ pattern: String) throws(RegexCompileError) {
        do {
            expression = try NSRegularExpression(pattern: pattern, options: [])
        } catch {
            throw RegexCompileError(pattern: pattern, reason: Self.describe(error))
        }
        self.pattern = pattern
        let groups = expression.numberOfCaptureGroups
        groupCount = groups
        #if canImport(CICU)
        direct = ICUPattern(pattern).flatMap { $0.groupCount == groups ? $0 : nil }
        #endif
    }

    private static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if let reason = nsError.userInfo["NSInvalidValue"] as? String { return "invalid pattern \(reason)" }
        return "ICU rejected the pattern (\(nsError.domain) \(nsError.code))"
    }

    /// The first match anywhere in `input`, if any.
    public func firstMatch(in input: String) -> NSTextCheckingResult? {
        expression.firstMatch(in: input, options: [], range: NSRange(input.startIndex..., in: input))
    }

    /// Whether the pattern matches anywhere in `input`.
    public func matches(_ input: String) -> Bool {
        firstMatch(in: input) != nil
    }

    /// Whether the pattern matches at the very start of `input` (redirect rules).
    public func firstMatchAtStart(of input: String) -> NSTextCheckingResult? {
        expression.firstMatch(in: input, options: [.anchored], range: NSRange(input.startIndex..., in: input))
    }

    /// `stringByReplacingMatches(in: input, withTemplate: template)` over the whole input (ICU `$N`, `\$`).
    public func replacingMatches(in input: String, with template: String) -> String {
        expression.stringByReplacingMatches(
            in: input, options: [], range: NSRange(input.startIndex..., in: input), withTemplate: template)
    }

    /// The template applied to one match, without the rest of the input.
    public func replacement(for match: NSTextCheckingResult, in input: String, template: String) -> String {
        expression.replacementString(for: match, in: input, offset: 0, template: template)
    }
}

/// A regex that ICU cannot compile.
public struct RegexCompileError: Error, Sendable, Equatable {
    /// The pattern.
    public var pattern: String
    /// ICU's reason.
    public var reason: String
}
