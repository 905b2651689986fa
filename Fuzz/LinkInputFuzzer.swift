import Foundation
import WebLinks

/// Fuzzes the link normaliser (`Link.init(_:)`) with arbitrary text.
///
/// Invariants: it never crashes or hangs; a refused link gets an error with a message; an accepted link is not
/// empty, has no control character or surrounding whitespace, keeps its scheme, has (for http and https) a
/// lower-case ASCII host, and is a fixed point: normalising it again gives it back unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let raw = FuzzInput.text(FuzzInput.bytes(data, size))
    let normalized: String
    do throws(LinkError) {
        normalized = try Link(raw).text
    } catch {
        fuzzExpect(!error.message.isEmpty, "a refusal without a message for \(FuzzInput.preview(raw))")
        return 0
    }
    LinkInputFuzzer.checkShape(of: normalized, from: raw)
    do throws(LinkError) {
        let again = try Link(normalized).text
        fuzzExpect(
            again == normalized,
            "not idempotent: \(FuzzInput.preview(raw)) → \(FuzzInput.preview(normalized)) → \(FuzzInput.preview(again))"
        )
    } catch {
        fuzzExpect(
            false,
            "the normalised link \(FuzzInput.preview(normalized)) (from \(FuzzInput.preview(raw))) is refused: \(error)"
        )
    }
    return 0
}

/// The checks of the link-input target.
enum LinkInputFuzzer {
    /// What every accepted link looks like.
    static func checkShape(of link: String, from raw: String) {
        let context = "\(FuzzInput.preview(raw)) → \(FuzzInput.preview(link))"
        fuzzExpect(!link.isEmpty, "an accepted link is empty: \(context)")
        fuzzExpect(link.utf8.count <= Link.maximumLength, "an accepted link is over the length limit: \(context)")
        let whitespace: Set<Unicode.Scalar> = [" ", "\t", "\n", "\r", "\u{0C}"]
        if let first = link.unicodeScalars.first, let last = link.unicodeScalars.last {
            fuzzExpect(
                !whitespace.contains(first) && !whitespace.contains(last),
                "surrounding whitespace kept: \(context)"
            )
        }
        fuzzExpect(
            !link.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) },
            "a control character got through: \(context)"
        )
        guard let colon = link.firstIndex(of: ":") else {
            fuzzExpect(false, "an accepted link has no scheme: \(context)")
            return
        }
        let scheme = link[..<colon]
        fuzzExpect(raw.contains(scheme), "the scheme changed: \(context)")
        guard ["http", "https"].contains(scheme.lowercased()) else { return }
        let afterSlashes = link[link.index(after: colon)...].dropFirst(2)
        let authority = afterSlashes.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority
        let host =
            hostPort.hasPrefix("[")
            ? hostPort : (hostPort.split(separator: ":", omittingEmptySubsequences: false).first ?? hostPort)
        fuzzExpect(!host.isEmpty, "an http(s) link was accepted with an empty host: \(context)")
        fuzzExpect(host.allSatisfy(\.isASCII), "the host is not ASCII (punycode) after normalising: \(context)")
        fuzzExpect(host == host.lowercased(), "the host is not lower case after normalising: \(context)")
    }
}
