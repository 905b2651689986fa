import Foundation
import Synchronization

#if canImport(JavaScriptCore)
import JavaScriptCore
#else
import CJavaScriptCore
#endif

/// Checks script syntax with JavaScriptCore's parser (no code runs), for loading rule sets and for lint.
public final class ScriptSyntaxChecker: Sendable {
    /// One checker per process: a single context, used under a lock.
    package static let shared = ScriptSyntaxChecker()

    private struct Context: @unchecked Sendable {
        let group: JSContextGroupRef?
        let context: JSGlobalContextRef?
    }

    private let context: Mutex<Context>

    private init() {
        let group = JSContextGroupCreate()
        context = Mutex(Context(group: group, context: JSGlobalContextCreateInGroup(group, nil)))
    }

    /// The syntax error in `source` (message and line), or nil when it parses.
    public func check(_ source: String) -> (message: String, line: Int?)? {
        context.withLock { holder in
            let script = JS.string(source)
            defer { if let script { JSStringRelease(script) } }
            var exception: JSValueRef?
            guard !JSCheckScriptSyntax(holder.context, script, nil, 1, &exception) else { return nil }
            return JS.exceptionDetails(holder.context, exception)
        }
    }

    /// Whether the source declares `process` (a function declaration or an assignment); the run confirms it.
    ///
    /// The regex `(function\s+process\s*\(|\bprocess\s*=)` as one scan over the source's scalars, with ICU's
    /// meaning of `\s` (Unicode white space, so `function\u{A0}process(` counts) and of `\w` and `\b`: Foundation
    /// compiled that regex anew for every script, a tenth of loading the v5 manifest.
    public static func mentionsProcess(_ source: String) -> Bool {
        let scalars = Array(source.unicodeScalars)
        let name = Array("process".unicodeScalars)
        let keyword = Array("function".unicodeScalars)
        func isSpace(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isWhitespace }
        func isWord(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.properties.generalCategory {
            case .decimalNumber, .connectorPunctuation, .nonspacingMark, .spacingMark, .enclosingMark: return true
            default: return scalar.properties.isAlphabetic || scalar == "\u{200C}" || scalar == "\u{200D}"
            }
        }
        var start = 0
        while start + name.count <= scalars.count {
            defer { start += 1 }
            guard scalars[start..<(start + name.count)].elementsEqual(name) else { continue }
            var after = start + name.count
            while after < scalars.count, isSpace(scalars[after]) { after += 1 }
            guard after < scalars.count else { continue }
            if scalars[after] == "=" {
                // ICU's \b looks past combining marks (Grapheme_Extend) to the character they belong to.
                var previous = start - 1
                while previous >= 0, scalars[previous].properties.isGraphemeExtend { previous -= 1 }
                if previous < 0 || !isWord(scalars[previous]) { return true }
            }
            guard scalars[after] == "(" else { continue }
            var before = start
            while before > 0, isSpace(scalars[before - 1]) { before -= 1 }
            if before < start, before >= keyword.count,
                scalars[(before - keyword.count)..<before].elementsEqual(keyword)
            {
                return true
            }
        }
        return false
    }
}
