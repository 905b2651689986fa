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
    #if canImport(CICU)
    /// The same pattern in ICU's C API, for the resolver's hot path (nil: only Foundation's is used).
    let direct: ICUPattern?
    /// Foundation's object, compiled on first use when `direct` exists: most rules never need it (ASCII links are
    /// matched and rendered through `direct`), and compiling every pattern twice was a sixth of loading v5.
    private let foundation: FoundationExpression
    /// Foundation's compiled pattern; nil only if Foundation refuses a pattern ICU accepted (same engine and flags).
    var expression: NSRegularExpression? { foundation.expression }
    #else
    let expression: NSRegularExpression?
    #endif

    /// Compiles `pattern` with ICU; throws the ICU error text.
    public init(_ pattern: String) throws(RegexCompileError) {
        self.pattern = pattern
        #if canImport(CICU)
        if let direct = ICUPattern(pattern) {
            self.direct = direct
            groupCount = direct.groupCount
            foundation = FoundationExpression(pattern: pattern, compiled: nil)
            return
        }
        direct = nil
        #endif
        let compiled: NSRegularExpression
        do {
            compiled = try NSRegularExpression(pattern: pattern, options: [])
        } catch {
            throw RegexCompileError(pattern: pattern, reason: Self.describe(pattern))
        }
        groupCount = compiled.numberOfCaptureGroups
        #if canImport(CICU)
        foundation = FoundationExpression(pattern: pattern, compiled: compiled)
        #else
        expression = compiled
        #endif
    }

    /// ICU's reason where its C API is at hand (Linux); `NSRegularExpression`'s error carries only the pattern, so
    /// elsewhere the reason is unknown (never Foundation's error domain and number).
    private static func describe(_ pattern: String) -> String {
        #if canImport(CICU)
        if let reason = ICUPattern.compileError(pattern) { return reason }
        #endif
        return "ICU gives no reason"
    }

    /// The first match anywhere in `input`, if any.
    public func firstMatch(in input: String) -> NSTextCheckingResult? {
        expression?.firstMatch(in: input, options: [], range: NSRange(input.startIndex..., in: input))
    }

    /// Whether the pattern matches anywhere in `input`.
    public func matches(_ input: String) -> Bool {
        firstMatch(in: input) != nil
    }

    /// Whether the pattern matches at the very start of `input` (redirect rules).
    public func firstMatchAtStart(of input: String) -> NSTextCheckingResult? {
        expression?.firstMatch(in: input, options: [.anchored], range: NSRange(input.startIndex..., in: input))
    }

    /// `stringByReplacingMatches(in: input, withTemplate: template)` over the whole input (ICU `$N`, `\$`).
    public func replacingMatches(in input: String, with template: String) -> String {
        expression?.stringByReplacingMatches(
            in: input,
            options: [],
            range: NSRange(input.startIndex..., in: input),
            withTemplate: template
        ) ?? input
    }

    /// The template applied to one match, without the rest of the input.
    public func replacement(for match: NSTextCheckingResult, in input: String, template: String) -> String {
        expression?.replacementString(for: match, in: input, offset: 0, template: template) ?? ""
    }
}

/// A regex that ICU cannot compile.
public struct RegexCompileError: Error, Sendable, Equatable {
    /// The pattern.
    public var pattern: String
    /// ICU's reason.
    public var reason: String
}

#if canImport(CICU)
/// `NSRegularExpression` made on first use, once, whichever thread asks first.
final class FoundationExpression: @unchecked Sendable {
    private let pattern: String
    private let lock = NSLock()
    private var compiled: NSRegularExpression?
    private var tried = false

    init(pattern: String, compiled: NSRegularExpression?) {
        self.pattern = pattern
        self.compiled = compiled
        tried = compiled != nil
    }

    var expression: NSRegularExpression? {
        lock.lock()
        defer { lock.unlock() }
        if !tried {
            tried = true
            compiled = try? NSRegularExpression(pattern: pattern, options: [])
        }
        return compiled
    }
}
#endif
