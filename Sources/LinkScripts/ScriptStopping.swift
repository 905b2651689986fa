/// How a run that reaches its deadline is stopped.
///
/// JavaScriptCore's C API can end a running script only through `JSContextGroupSetExecutionTimeLimit`, which
/// WebKitGTK's JavaScriptCore (Linux) makes public but Apple ships only in a private header: an app that called it
/// would use private API. So Linux terminates the script inside its VM, and Apple platforms, with public API only,
/// abandon the run.
public enum ScriptStopping: Sendable, Equatable {
    #if !canImport(JavaScriptCore)
    /// JavaScriptCore's execution time limit ends the script inside its VM at the deadline; the worker goes on to
    /// the next run. Linux only (see the type's discussion).
    case terminate
    #endif

    /// A watchdog answers the caller with ``ScriptError/Code/timeout`` at the deadline and abandons the run: its
    /// thread and VM are let go, and end when the script ends. A script that never ends keeps its thread busy until
    /// the process exits, so at most `maximumAbandoned` runs may be abandoned and still running at once; while that
    /// many are, scripts are not run (``ScriptError/Code/exhausted``). Public API only: the default on Apple
    /// platforms, and available everywhere.
    case abandon(maximumAbandoned: Int)

    /// The mode of this platform: ``terminate`` on Linux, ``abandon(maximumAbandoned:)`` with 8 elsewhere.
    public static var platformDefault: ScriptStopping {
        #if !canImport(JavaScriptCore)
        .terminate
        #else
        .abandon(maximumAbandoned: 8)
        #endif
    }

    /// The most abandoned runs still running, or nil when runs are terminated.
    var maximumAbandoned: Int? {
        switch self {
        case .abandon(let maximum): max(1, maximum)
        #if !canImport(JavaScriptCore)
        case .terminate: nil
        #endif
        }
    }
}
