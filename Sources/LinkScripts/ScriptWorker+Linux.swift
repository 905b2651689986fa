// JavaScriptCore's execution time limit: public in WebKitGTK's JavaScriptCore, private on Apple platforms (see
// ScriptStopping), so this file is Linux only.
#if !canImport(JavaScriptCore)
import CJavaScriptCore

extension ScriptWorker {
    /// The watchdog: JavaScriptCore calls it after each period of CPU time; it stops the script once the wall-clock
    /// deadline has passed (or memory ran away), else re-arms itself (a callback that returns false without
    /// re-arming never fires again).
    private static let watchdog: JSShouldTerminateCallback = { _, pointer in
        guard let pointer else { return true }
        let worker = Unmanaged<ScriptWorker>.fromOpaque(pointer).takeUnretainedValue()
        if ContinuousClock.now >= worker.deadline {
            worker.stopReason = .timeout
            return true
        }
        if ResidentMemory.current() - worker.memoryBaseline > worker.configuration.maximumMemoryGrowth {
            worker.stopReason = .memory
            return true
        }
        worker.armTimeLimit()
        worker.markHeld()
        return false
    }

    /// Arms the watchdog for one period of CPU time.
    func armTimeLimit() {
        JSContextGroupSetExecutionTimeLimit(
            group,
            configuration.watchdogPeriod / .seconds(1),
            Self.watchdog,
            Unmanaged.passUnretained(self).toOpaque()
        )
    }
}
#endif
