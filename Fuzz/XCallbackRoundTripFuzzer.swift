import Foundation
import XCallbackURL

/// Fuzzes x-callback-url parsing and building with arbitrary text, under the standard policy and a permissive one
/// (web callbacks to two hosts, long URLs, deep nesting).
///
/// Invariants: parsing never crashes; a request that parses builds back to a URL under the same policy (what the
/// parser accepted, the builder must not refuse); that URL parses to an equal request and builds to the same text
/// (build → parse → build is stable); the response URLs and the JSON form can be produced for it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let url = FuzzInput.text(FuzzInput.bytes(data, size))
    XCallbackRoundTripFuzzer.roundTrip(url, policy: .standard)
    XCallbackRoundTripFuzzer.roundTrip(url, policy: XCallbackRoundTripFuzzer.permissive)
    return 0
}

/// The checks of the x-callback-url target.
enum XCallbackRoundTripFuzzer {
    /// A policy that lets more inputs through to the builder.
    static let permissive = CallbackPolicy(
        allowedWebHosts: ["example.com", "[::1]"],
        maximumLength: 1 << 20,
        maximumNestingDepth: 8
    )

    /// Parse, build, parse, build.
    static func roundTrip(_ url: String, policy: CallbackPolicy) {
        let request: XCallbackRequest
        do throws(XCallbackURLError) {
            request = try XCallbackRequest(parsing: url, policy: policy)
        } catch {
            fuzzExpect(!error.description.isEmpty, "a refusal without a description for \(FuzzInput.preview(url))")
            return
        }
        let context = "\(FuzzInput.preview(url)) (policy \(policy == .standard ? "standard" : "permissive"))"
        let built: String
        do throws(XCallbackURLError) {
            built = try request.url(policy: policy)
        } catch {
            fuzzExpect(false, "parsed but cannot be built again (\(error)): \(context)")
            return
        }
        do throws(XCallbackURLError) {
            let reparsed = try XCallbackRequest(parsing: built, policy: policy)
            fuzzExpect(
                reparsed == request,
                "build → parse changed the request: \(request) became \(reparsed) via \(FuzzInput.preview(built)); \(context)"
            )
            let rebuilt = try reparsed.url(policy: policy)
            fuzzExpect(
                rebuilt == built,
                "build is not stable: \(FuzzInput.preview(built)) → \(FuzzInput.preview(rebuilt)); \(context)"
            )
        } catch {
            fuzzExpect(false, "the built URL \(FuzzInput.preview(built)) is refused (\(error)): \(context)")
        }
        // The answering side: response URLs and the JSON form must be producible for anything that parsed.
        _ = request.successURL(results: [.init("result", "a&b=c"), .init("flag", nil)])
        _ = request.errorURL(code: "42", message: String(repeating: "é", count: 250))
        _ = request.cancelURL()
        do {
            _ = try JSONEncoder().encode(request)
        } catch {
            fuzzExpect(false, "the JSON form cannot be encoded (\(error)): \(context)")
        }
    }
}
