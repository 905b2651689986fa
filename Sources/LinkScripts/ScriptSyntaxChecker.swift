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
    public static let shared = ScriptSyntaxChecker()

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
    /// The regex `(function\s+process\s*\(|\bprocess\s*=)` as one scan over the bytes: Foundation compiled that
    /// regex anew for every script, a tenth of loading the v5 manifest.
    public static func mentionsProcess(_ source: String) -> Bool {
        let bytes = Array(source.utf8)
        let name = Array("process".utf8), keyword = Array("function".utf8)
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        func isWord(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "_") || byte >= 0x80 || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        }
        var start = 0
        while start + name.count <= bytes.count {
            defer { start += 1 }
            guard bytes[start..<(start + name.count)].elementsEqual(name) else { continue }
            var after = start + name.count
            while after < bytes.count, isSpace(bytes[after]) { after += 1 }
            guard after < bytes.count else { continue }
            if bytes[after] == UInt8(ascii: "="), start == 0 || !isWord(bytes[start - 1]) { return true }
            guard bytes[after] == UInt8(ascii: "(") else { continue }
            var before = start
            while before > 0, isSpace(bytes[before - 1]) { before -= 1 }
            if before < start, before >= keyword.count, bytes[(before - keyword.count)..<before].elementsEqual(keyword) {
                return true
            }
        }
        return false
    }
}
