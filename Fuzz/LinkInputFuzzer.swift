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
        fuzzExpect(
            link.utf8.count <= Link.maximumLength * 4,
            "an accepted link grew past four times the limit: \(context)"
        )
        fuzzExpect(
            !link.unicodeScalars.contains {
                $0.value <= 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value)
                    || $0.properties.generalCategory == .format
            },
            "a control, space or invisible format character got through unencoded: \(context)"
        )
        guard let parsed = try? Link(link) else { return }
        fuzzExpect(["http", "https"].contains(parsed.scheme), "a link that is not a web link was accepted: \(context)")
        fuzzExpect(
            link.hasPrefix(parsed.scheme + "://" + parsed.host),
            "the text does not start with scheme://host: \(context)"
        )
        fuzzExpect(!parsed.host.isEmpty, "an accepted link has an empty host: \(context)")
        fuzzExpect(parsed.host.allSatisfy(\.isASCII), "the host is not ASCII (punycode) after normalising: \(context)")
        fuzzExpect(parsed.host == parsed.host.lowercased(), "the host is not lower case after normalising: \(context)")
        fuzzExpect(parsed.requestText.allSatisfy(\.isASCII), "the request text is not ASCII: \(context)")
        // The parser the HTTP client uses reads the same host and port: never matched as one host, fetched as another.
        let url = URL(string: parsed.requestText)
        fuzzExpect(
            url?.host?.lowercased() == parsed.hostName,
            "Foundation reads another host (\(url?.host ?? "none")): \(context)"
        )
        fuzzExpect(
            (url?.port ?? (parsed.scheme == "https" ? 443 : 80)) == parsed.effectivePort,
            "Foundation reads another port: \(context)"
        )
    }
}
