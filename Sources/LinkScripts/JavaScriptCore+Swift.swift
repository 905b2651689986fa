#if canImport(JavaScriptCore)
import JavaScriptCore
#else
import CJavaScriptCore
#endif

/// Small conversions between Swift strings and JavaScriptCore values (the C API shared by Apple platforms and
/// Debian's libjavascriptcoregtk).
enum JS {
    /// A JavaScript string made from a Swift string; the caller releases it.
    static func string(_ text: String) -> JSStringRef? {
        text.withCString { JSStringCreateWithUTF8CString($0) }
    }

    /// The Swift string of a JavaScript string.
    static func swiftString(_ string: JSStringRef?) -> String {
        guard let string else { return "" }
        let capacity = JSStringGetMaximumUTF8CStringSize(string)
        var buffer = [CChar](repeating: 0, count: capacity)
        let written = JSStringGetUTF8CString(string, &buffer, capacity)
        guard written > 0 else { return "" }
        return String(decoding: buffer[0..<(written - 1)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The string form of any value (`String(value)` in JavaScript).
    static func describe(_ context: JSContextRef?, _ value: JSValueRef?) -> String {
        guard let context, let value else { return "undefined" }
        let string = JSValueToStringCopy(context, value, nil)
        defer { if let string { JSStringRelease(string) } }
        return swiftString(string)
    }

    /// A JavaScript string value.
    static func value(_ context: JSContextRef?, _ text: String) -> JSValueRef? {
        let string = self.string(text)
        defer { if let string { JSStringRelease(string) } }
        return JSValueMakeString(context, string)
    }

    /// A property of an object, as a value.
    static func property(_ context: JSContextRef?, _ object: JSObjectRef?, _ name: String) -> JSValueRef? {
        let key = string(name)
        defer { if let key { JSStringRelease(key) } }
        return JSObjectGetProperty(context, object, key, nil)
    }

    /// A property of an object that is a function, as an object.
    static func function(_ context: JSContextRef?, _ object: JSObjectRef?, _ name: String) -> JSObjectRef? {
        guard let value = property(context, object, name), JSValueIsObject(context, value),
            let function = JSValueToObject(context, value, nil), JSObjectIsFunction(context, function)
        else { return nil }
        return function
    }

    /// Sets a property on an object.
    static func setProperty(_ context: JSContextRef?, _ object: JSObjectRef?, _ name: String, _ value: JSValueRef?) {
        let key = string(name)
        defer { if let key { JSStringRelease(key) } }
        JSObjectSetProperty(context, object, key, value, JSPropertyAttributes(kJSPropertyAttributeNone), nil)
    }

    /// Evaluates source; returns the exception when one was thrown.
    @discardableResult
    static func evaluate(_ context: JSContextRef?, _ source: String, name: String) -> JSValueRef? {
        let script = string(source)
        let url = string(name)
        defer {
            if let script { JSStringRelease(script) }
            if let url { JSStringRelease(url) }
        }
        var exception: JSValueRef?
        _ = JSEvaluateScript(context, script, nil, url, 1, &exception)
        return exception
    }

    /// The message and line of a thrown value.
    static func exceptionDetails(_ context: JSContextRef?, _ exception: JSValueRef?) -> (message: String, line: Int?) {
        let message = describe(context, exception)
        guard let context, let exception, JSValueIsObject(context, exception) else { return (message, nil) }
        let object = JSValueToObject(context, exception, nil)
        let lineValue = property(context, object, "line")
        let line = lineValue.flatMap {
            JSValueIsNumber(context, $0) ? Int(exactly: JSValueToNumber(context, $0, nil).rounded()) : nil
        }
        return (message, line)
    }
}
