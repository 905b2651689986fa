import Foundation
import Testing

@testable import DomainClaims

/// The non-backtracking matcher against a plain recursive one (exponential, so only on short texts), on every small
/// pattern and text built from a few letters, stars, question marks and variables with alternatives of several
/// lengths (some with their own `*`).
@Suite struct PatternMatcherTests {
    /// Backtracking reference: the meaning of the elements, written as directly as possible.
    static func reference(_ elements: ArraySlice<PatternElement>, _ text: ArraySlice<UInt32>) -> Bool {
        guard let first = elements.first else { return text.isEmpty }
        let rest = elements.dropFirst()
        switch first {
        case .scalar(let scalar):
            return text.first == scalar && reference(rest, text.dropFirst())
        case .any:
            return !text.isEmpty && reference(rest, text.dropFirst())
        case .character(let characterClass):
            guard let scalar = text.first else { return false }
            return characterClass.contains(scalar, ignoringCase: false) && reference(rest, text.dropFirst())
        case .star:
            return (0...text.count).contains { reference(rest, text.dropFirst($0)) }
        case .choice:
            Issue.record("the reference is given expanded choices")
            return false
        }
    }

    static let variables = ["v": ["a", "ab", "b*a"], "w": ["", "ba?"]]

    /// The pattern with each variable expanded to every combination of its values (the reference has no choices).
    static func expansions(_ pattern: String) -> [String] {
        guard let start = pattern.range(of: "$(") else { return [pattern] }
        let end = pattern[start.upperBound...].firstIndex(of: ")")!
        let name = String(pattern[start.upperBound..<end])
        let tail = String(pattern[pattern.index(after: end)...])
        return (variables[name] ?? []).flatMap { value in
            expansions(tail).map { String(pattern[..<start.lowerBound]) + value + $0 }
        }
    }

    static let patterns: [String] = {
        let atoms = ["a", "b", "*", "?", "$(v)", "$(w)"]
        var result = [""]
        var layer = [""]
        for _ in 0..<4 {
            layer = layer.flatMap { prefix in atoms.map { prefix + $0 } }
            result += layer
        }
        return result
    }()

    static let texts: [String] = {
        var result = [""]
        var layer = [""]
        for _ in 0..<4 {
            layer = layer.flatMap { prefix in ["a", "b"].map { prefix + $0 } }
            result += layer
        }
        return result
    }()

    @Test func agreesWithBacktrackingOnEverySmallPatternAndText() {
        let compiler = PatternCompiler(variables: Self.variables, ignoresCase: false)
        var disagreements: [String] = []
        for pattern in Self.patterns {
            let matcher = PatternMatcher(compiler.compile(pattern).elements, ignoresCase: false)
            let references = Self.expansions(pattern).map { compiler.compile($0).elements }
            for text in Self.texts {
                let scalars = Array(text.unicodeScalars.map(\.value))
                let expected = references.contains { Self.reference($0[...], scalars[...]) }
                if matcher.matches(MatchText(text)) != expected { disagreements.append("\(pattern) on \"\(text)\"") }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
    }

    @Test func hostilePatternsStayFast() {
        let pattern = String(repeating: "*a", count: 500) + "b"
        let matcher = PatternMatcher(
            PatternCompiler(variables: [:], ignoresCase: false).compile(pattern).elements,
            ignoresCase: false
        )
        // Ends in b but has too few a's; and enough a's but no b: both refused without backtracking.
        #expect(!matcher.matches(MatchText(String(repeating: "a", count: 499) + "b")))
        #expect(!matcher.matches(MatchText(String(repeating: "a", count: 8000))))
        #expect(matcher.matches(MatchText(String(repeating: "a", count: 600) + "b")))
        let interleaved = String(repeating: "*ab", count: 200) + "*c"
        let other = PatternMatcher(
            PatternCompiler(variables: [:], ignoresCase: false).compile(interleaved).elements,
            ignoresCase: false
        )
        #expect(
            !other.matches(MatchText(String(repeating: "ab", count: 199) + String(repeating: "a", count: 4000) + "c"))
        )
    }

    @Test(arguments: [("*", ""), ("?*", "x"), ("a*", "a"), ("*a", "ba"), ("$(v)", "bxxa")])
    func matchesSimpleCases(_ pattern: String, _ text: String) {
        let compiler = PatternCompiler(variables: Self.variables, ignoresCase: false)
        #expect(PatternMatcher(compiler.compile(pattern).elements, ignoresCase: false).matches(MatchText(text)))
    }
}
