import Foundation

#if canImport(JavaScriptCore)
import JavaScriptCore
#else
import CJavaScriptCore
#endif

/// What a script's completion handler received during one run.
enum CompletionValue {
    case string(String)
    case noResult
    case badType(String)
    case tooLarge(Int)

    /// A string of `length` UTF-16 code units, made by `text` only when it is no longer than `limit` (a 100 MB result
    /// must not be copied to find out it is too long).
    static func string(length: Int, limit: Int, _ text: () -> String) -> CompletionValue {
        length > limit ? .tooLarge(length) : .string(text())
    }
}

/// The state of one run, reached from the native callbacks through the context.
final class RunState {
    /// Where the answers at hand are (``ScriptNetwork/answer(to:)``, by the URL as the script wrote it); nil: the run
    /// is offline.
    let network: (any ScriptNetwork)?
    let deadline: ContinuousClock.Instant
    let maximumLength: Int
    /// The most network requests the run may make.
    let maximumSubrequests: Int
    /// The requests the script asked for so far.
    var subrequests = 0
    /// Whether the script asked for more requests than it may make.
    var exceededSubrequests = false
    var completion: CompletionValue?
    var usedNetwork = false
    var attemptedOffline = false
    var blocked = false
    /// A request not sent because its host backed off, and why.
    /// The first request of the run that was held back (its host backed off or down).
    var heldBack: ScriptNetworkError?
    /// The first URL the script asked for whose answer was not at hand: the run is stopped and runs again with it.
    var pendingRequest: String?
    /// The URLs whose answers the run used, in order.
    var consumed: [String] = []

    init(
        network: (any ScriptNetwork)?,
        deadline: ContinuousClock.Instant,
        maximumLength: Int,
        maximumSubrequests: Int
    ) {
        self.network = network
        self.deadline = deadline
        self.maximumLength = maximumLength
        self.maximumSubrequests = maximumSubrequests
    }
}

/// One script's warm JavaScript context on one worker: helpers installed, the script evaluated once, `process`
/// kept. Runs reuse it (a fresh context costs ~1.8 ms, a warm call microseconds); after each run the globals it
/// created are removed, and a run the watchdog stopped discards the context, so a half-finished run never leaks
/// into the next.
final class ScriptContext {
    let context: JSGlobalContextRef
    private let process: JSObjectRef
    private let completion: JSObjectRef
    /// The prelude's `__invoke` and `__reset`, called directly (evaluating their names as source on every run made
    /// JavaScriptCore keep a little of each evaluation).
    private let invoke: JSObjectRef
    private let resetGlobals: JSObjectRef
    var run: RunState?

    /// Classes shared by every context (immutable once created).
    nonisolated(unsafe) static let globalClass: JSClassRef? = {
        var definition = kJSClassDefinitionEmpty
        return JSClassCreate(&definition)
    }()

    nonisolated(unsafe) static let completionClass: JSClassRef? = {
        var definition = kJSClassDefinitionEmpty
        definition.callAsFunction = { context, function, _, count, arguments, _ in
            guard let owner = ScriptContext.owner(of: function), let run = owner.run else {
                return JSValueMakeUndefined(context)
            }
            // Completion called twice counts once.
            guard run.completion == nil else { return JSValueMakeUndefined(context) }
            let value = count > 0 ? arguments?[0] : nil
            if value == nil || JSValueIsNull(context, value) || JSValueIsUndefined(context, value) {
                run.completion = .noResult
            } else if JSValueIsString(context, value) {
                // Measure before converting: a 100 MB result must not be copied to find out it is too long.
                let string = JSValueToStringCopy(context, value, nil)
                defer { if let string { JSStringRelease(string) } }
                let length = JSStringGetLength(string)
                run.completion = .string(length: length, limit: run.maximumLength) { JS.swiftString(string) }
            } else {
                run.completion = .badType(JS.describe(context, value))
            }
            return JSValueMakeUndefined(context)
        }
        return JSClassCreate(&definition)
    }()

    static func owner(of object: JSObjectRef?) -> ScriptContext? {
        guard let pointer = JSObjectGetPrivate(object) else { return nil }
        return Unmanaged<ScriptContext>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// The native side of `httpRequest`: the answer at hand, or, when there is none yet, the run stops here (the script
    /// sees an exception, and whatever it does next is discarded) and the runner fetches it for the next run.
    static let hostRequest: JSObjectCallAsFunctionCallback = { context, _, _, count, arguments, exception in
        let global = JSContextGetGlobalObject(context)
        guard let owner = ScriptContext.owner(of: global), let run = owner.run else { return JSValueMakeNull(context) }
        let url = count > 0 ? JS.describe(context, arguments?[0]) : ""
        func fail(_ message: String, code: String? = nil) -> JSValueRef? {
            var argument = JS.value(context, message)
            let error = JSObjectMakeError(context, 1, &argument, nil)
            if let code { JS.setProperty(context, error, "code", JS.value(context, code)) }
            exception?.pointee = error
            return JSValueMakeNull(context)
        }
        // One run makes a bounded number of requests (a loop of httpRequest calls would otherwise keep a worker and
        // the network busy until its deadline): the next one throws, with a code the script can test.
        run.subrequests += 1
        guard run.subrequests <= run.maximumSubrequests else {
            run.exceededSubrequests = true
            return fail(
                "httpRequest: this run has made its \(run.maximumSubrequests) requests; no more are allowed [E_TOO_MANY_SUBREQUESTS]",
                code: "E_TOO_MANY_SUBREQUESTS"
            )
        }
        guard let network = run.network else {
            run.attemptedOffline = true
            return fail("httpRequest: the network is not available in this run (\(url))")
        }
        // After one answer was missing, the run only goes on to be discarded: nothing more is asked for.
        guard run.pendingRequest == nil else { return fail("httpRequest: an earlier request is under way") }
        guard let answer = network.answer(to: url) else {
            guard ContinuousClock.now < run.deadline else { return fail("httpRequest: the script's time is up") }
            run.pendingRequest = url
            return fail("httpRequest: the answer to \(url) is under way")
        }
        run.consumed.append(url)
        switch answer {
        case .success(let body):
            run.usedNetwork = true
            return JS.value(context, body)
        case .failure(let error):
            // A request refused before it left (offline, or by the policy) did not use the network.
            switch error.kind {
            case .offline: run.attemptedOffline = true
            case .blocked: run.blocked = true
            case .failed: run.usedNetwork = true
            case .backedOff, .hostDown: run.heldBack = run.heldBack ?? error
            }
            return fail("httpRequest: \(error.message)")
        }
    }

    /// Creates the context, installs the helpers and evaluates the script once.
    init(group: JSContextGroupRef, script: CompiledScript) throws(ScriptError) {
        guard let context = JSGlobalContextCreateInGroup(group, Self.globalClass) else {
            throw ScriptError(code: .exception, rule: script.name, message: "JavaScriptCore could not create a context")
        }
        self.context = context
        let global = JSContextGetGlobalObject(context)
        let hostName = JS.string("__hostHTTPRequest")
        JS.setProperty(
            context,
            global,
            "__hostHTTPRequest",
            JSObjectMakeFunctionWithCallback(context, hostName, Self.hostRequest)
        )
        if let hostName { JSStringRelease(hostName) }
        if script.kind == .legacyScript {
            JS.setProperty(context, global, "__legacyWebView", JSValueMakeBoolean(context, true))
        }
        if let exception = JS.evaluate(context, ScriptPrelude.source, name: "prelude.js") {
            let message = JS.describe(context, exception)
            JSGlobalContextRelease(context)
            throw ScriptError(code: .exception, rule: script.name, message: "the host prelude failed: \(message)")
        }
        if let exception = JS.evaluate(context, script.source, name: script.name) {
            let details = JS.exceptionDetails(context, exception)
            JSGlobalContextRelease(context)
            throw ScriptError(
                code: .exception,
                rule: script.name,
                message: "the script threw while loading: \(details.message)",
                line: details.line
            )
        }
        guard let processObject = JS.function(context, global, "process") else {
            JSGlobalContextRelease(context)
            throw ScriptError(
                code: .noProcess,
                rule: script.name,
                message: "the script defines no function process(url, completionHandler)"
            )
        }
        guard let snapshot = JS.function(context, global, "__snapshot"),
            let invoke = JS.function(context, global, "__invoke"),
            let resetGlobals = JS.function(context, global, "__reset")
        else {
            JSGlobalContextRelease(context)
            throw ScriptError(
                code: .exception,
                rule: script.name,
                message: "the host prelude did not define its helpers"
            )
        }
        _ = JSObjectCallAsFunction(context, snapshot, nil, 0, nil, nil)
        self.invoke = invoke
        self.resetGlobals = resetGlobals
        self.process = processObject
        JSValueProtect(context, processObject)
        JSValueProtect(context, invoke)
        JSValueProtect(context, resetGlobals)
        guard let completionObject = JSObjectMake(context, Self.completionClass, nil) else {
            JSGlobalContextRelease(context)
            throw ScriptError(
                code: .exception,
                rule: script.name,
                message: "JavaScriptCore could not create the completion handler"
            )
        }
        self.completion = completionObject
        JSValueProtect(context, completionObject)
        let pointer = Unmanaged.passUnretained(self).toOpaque()
        JSObjectSetPrivate(completionObject, pointer)
        JSObjectSetPrivate(global, pointer)
    }

    deinit {
        JSValueUnprotect(context, process)
        JSValueUnprotect(context, completion)
        JSValueUnprotect(context, invoke)
        JSValueUnprotect(context, resetGlobals)
        JSObjectSetPrivate(JSContextGetGlobalObject(context), nil)
        JSObjectSetPrivate(completion, nil)
        JSGlobalContextRelease(context)
    }

    /// Calls `process(input, completion)`, then runs queued XMLHttpRequest callbacks, both through the prelude's
    /// `__invoke`, which hands back what they threw as a value; a run the watchdog `stopped` ends in JavaScriptCore's
    /// termination, which no script can catch. Returns the exception, if any, read only when asked (an offline run's
    /// refused request throws, and its message and line are never shown).
    func call(input: String, stopped: () -> Bool) -> (() -> (message: String, line: Int?))? {
        var arguments: [JSValueRef?] = [process, JS.value(context, input), completion]
        var exception: JSValueRef?
        let result = JSObjectCallAsFunction(context, invoke, nil, 3, &arguments, &exception)
        if stopped() {
            // Entering the VM once more through evaluation lets JavaScriptCore finish the termination; without it the
            // next context created in the group aborts.
            JS.evaluate(context, "", name: "host.js")
        } else if exception == nil, let result, JSValueIsObject(context, result) {
            let wrapper = JSValueToObject(context, result, nil)
            exception = JS.property(context, wrapper, "thrown")
        }
        guard let exception else { return nil }
        return { [context] in JS.exceptionDetails(context, exception) }
    }

    /// Removes globals the run created.
    func reset() {
        _ = JSObjectCallAsFunction(context, resetGlobals, nil, 0, nil, nil)
    }
}
