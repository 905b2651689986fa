/// The JavaScript every script context starts with: the host helpers Opener documents (`httpRequest`,
/// `jsonRequest`, `btoa`, `base64DigitsToBase10String`), a minimal `XMLHttpRequest` for legacy `script` fields, and
/// the bookkeeping the host uses between runs. Helpers are read-only globals, so a script cannot replace them.
enum ScriptPrelude {
    static let source = #"""
        (function (global) {
            "use strict";
            var hostRequest = global.__hostHTTPRequest;
            delete global.__hostHTTPRequest;
            function define(name, value) {
                Object.defineProperty(global, name, { value: value, writable: false, enumerable: false, configurable: false });
            }
            function httpRequest(url) { return hostRequest(String(url)); }
            function jsonRequest(url) {
                var text = hostRequest(String(url));
                try { return JSON.parse(text); } catch (error) { return null; }
            }
            var alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
            function btoa(input) {
                var text = String(input), output = "";
                for (var i = 0; i < text.length; i++) {
                    if (text.charCodeAt(i) > 255) {
                        var error = new Error("btoa: the string contains characters outside of the Latin1 range");
                        error.name = "InvalidCharacterError";
                        throw error;
                    }
                }
                for (var j = 0; j < text.length; j += 3) {
                    var a = text.charCodeAt(j), b = text.charCodeAt(j + 1), c = text.charCodeAt(j + 2);
                    var bits = (a << 16) | ((b || 0) << 8) | (c || 0);
                    output += alphabet.charAt((bits >> 18) & 63) + alphabet.charAt((bits >> 12) & 63);
                    output += j + 1 < text.length ? alphabet.charAt((bits >> 6) & 63) : "=";
                    output += j + 2 < text.length ? alphabet.charAt(bits & 63) : "=";
                }
                return output;
            }
            // digits: base-64 digit values, most significant first. Decimal limbs of 10^7 keep it exact.
            function base64DigitsToBase10String(digits) {
                var limbs = [0];
                for (var i = 0; i < digits.length; i++) {
                    var carry = Number(digits[i]) | 0;
                    for (var k = 0; k < limbs.length; k++) {
                        var value = limbs[k] * 64 + carry;
                        limbs[k] = value % 10000000;
                        carry = Math.floor(value / 10000000);
                    }
                    while (carry > 0) { limbs.push(carry % 10000000); carry = Math.floor(carry / 10000000); }
                }
                var text = String(limbs[limbs.length - 1]);
                for (var m = limbs.length - 2; m >= 0; m--) { text += String(limbs[m] + 10000000).slice(1); }
                return text;
            }
            var pending = [];
            function XMLHttpRequest() {
                this.readyState = 0; this.status = 0; this.responseText = ""; this.onreadystatechange = null; this.onload = null;
            }
            XMLHttpRequest.prototype.open = function (method, url) {
                this.method = String(method || "GET").toUpperCase(); this.url = String(url); this.readyState = 1;
            };
            XMLHttpRequest.prototype.setRequestHeader = function () {};
            // A web view answers asynchronously: the request runs after process() returns, then the callbacks.
            XMLHttpRequest.prototype.send = function () {
                var request = this;
                pending.push(function () {
                    try { request.responseText = hostRequest(request.url); request.status = 200; }
                    catch (error) { request.responseText = ""; request.status = 0; }
                    request.readyState = 4;
                    if (typeof request.onreadystatechange === "function") { request.onreadystatechange(); }
                    if (typeof request.onload === "function") { request.onload(); }
                });
            };
            function drain() {
                while (pending.length > 0) { pending.shift()(); }
            }
            // The host calls process() and then the queued callbacks through here, and gets what they threw as a
            // value: an exception that leaves JavaScriptCore through its C API is reported to the inspector, which
            // symbolises the native stack (measured: about 270 µs per run, every run that throws).
            function invoke(process, input, done) {
                try { process(input, done); drain(); return undefined; }
                catch (error) { return { thrown: error }; }
            }
            var baseline = null;
            function snapshot() {
                baseline = Object.create(null);
                Object.getOwnPropertyNames(global).forEach(function (name) { baseline[name] = true; });
            }
            // Globals a run created are removed, so one run cannot leave state for the next.
            function reset() {
                pending.length = 0;
                Object.getOwnPropertyNames(global).forEach(function (name) {
                    if (baseline && !baseline[name]) { try { delete global[name]; } catch (error) {} }
                });
            }
            define("httpRequest", httpRequest);
            define("jsonRequest", jsonRequest);
            define("btoa", btoa);
            define("base64DigitsToBase10String", base64DigitsToBase10String);
            define("__drain", drain);
            define("__invoke", invoke);
            define("__snapshot", snapshot);
            define("__reset", reset);
            if (global.__legacyWebView) { define("XMLHttpRequest", XMLHttpRequest); }
        })(this);
        """#
}
