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
    public static func mentionsProcess(_ source: String) -> Bool {
        source.range(of: #"(function\s+process\s*\(|\bprocess\s*=)"#, options: .regularExpression) != nil
    }
}
