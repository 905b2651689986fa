/// One `<data>` path of an Android intent filter, matched as `android.os.PatternMatcher` matches a link's decoded path:
/// `android:path` (the whole path), `pathPrefix`, `pathSuffix`, `pathPattern` (the simple glob: `.` any character,
/// `X*` any run of X, `.*` any run that stops at the first occurrence of the next character, without backtracking, so
/// `.*/bar` does not match `/foo/bar`, and `\` escapes) and `pathAdvancedPattern` (sets, ranges and `+`, `{m,n}`,
/// greedy and without backtracking). Characters are UTF-16 code units, as Java's.
public struct FilterPath: Sendable, Equatable {
    /// The attribute the path came from.
    public enum Kind: String, Sendable, CaseIterable {
        /// `android:path`.
        case path
        /// `android:pathPrefix`.
        case prefix = "pathPrefix"
        /// `android:pathSuffix`.
        case suffix = "pathSuffix"
        /// `android:pathPattern`.
        case pattern = "pathPattern"
        /// `android:pathAdvancedPattern`.
        case advancedPattern = "pathAdvancedPattern"
    }

    /// The attribute.
    public let kind: Kind
    /// The text as written.
    public let text: String
    private let units: [UInt16]
    private let tokens: [Int]

    /// Reads a path; throws the reason for a `pathAdvancedPattern` Android refuses (where the app would not install).
    public init(_ kind: Kind, _ text: String) throws(AdvancedPatternError) {
        self.kind = kind
        self.text = text
        units = Array(text.utf16)
        tokens = kind == .advancedPattern ? try AdvancedPattern.parse(units) : []
    }

    /// Whether the decoded path `path` matches.
    public func matches(_ path: String) -> Bool {
        let match = Array(path.utf16)
        switch kind {
        case .path: return match == units
        case .prefix: return match.starts(with: units)
        case .suffix: return match.count >= units.count && match.suffix(units.count).elementsEqual(units)
        case .pattern: return Self.matchGlob(units, match)
        case .advancedPattern: return AdvancedPattern.matches(tokens, match)
        }
    }

    /// `PatternMatcher.matchGlobPattern`, step for step.
    static func matchGlob(_ pattern: [UInt16], _ match: [UInt16]) -> Bool {
        let star = UInt16(UInt8(ascii: "*"))
        let dot = UInt16(UInt8(ascii: "."))
        let backslash = UInt16(UInt8(ascii: "\\"))
        let patternCount = pattern.count
        guard patternCount > 0 else { return match.isEmpty }
        let matchCount = match.count
        var ip = 0
        var im = 0
        var next = pattern[0]
        func character(at index: Int) -> UInt16 { index < patternCount ? pattern[index] : 0 }
        while ip < patternCount && im < matchCount {
            var current = next
            ip += 1
            next = character(at: ip)
            let escaped = current == backslash
            if escaped {
                current = next
                ip += 1
                next = character(at: ip)
            }
            if next == star {
                if !escaped && current == dot {
                    if ip >= patternCount - 1 { return true }
                    ip += 1
                    next = pattern[ip]
                    if next == backslash {
                        ip += 1
                        next = character(at: ip)
                    }
                    while im < matchCount && match[im] != next { im += 1 }
                    if im == matchCount { return false }
                    ip += 1
                    next = character(at: ip)
                    im += 1
                } else {
                    while im < matchCount && match[im] == current { im += 1 }
                    ip += 1
                    next = character(at: ip)
                }
            } else {
                if current != dot && match[im] != current { return false }
                im += 1
            }
        }
        if ip >= patternCount && im >= matchCount { return true }
        // The match ended with `.*` left in the pattern, which matches nothing as well.
        return ip == patternCount - 2 && pattern[ip] == dot && pattern[ip + 1] == star
    }
}

/// Why Android refuses a `pathAdvancedPattern` (`PatternMatcher.parseAndVerifyAdvancedPattern`).
public struct AdvancedPatternError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The reason, in Android's words.
    public var description: String
}
