/// Proofpoint URL Defense v3's form, `https://urldefense.com/v3/__LINK__;DATA!TOKENS`: `LINK` is the original link
/// with some bytes replaced by markers, `DATA` those bytes in order, base64url without padding (possibly empty), and
/// what follows the `!` the gateway's own.
///
/// `LINK` is read left to right: `*` followed by anything but `*` stands for the next one byte of `DATA`; `**X` for
/// the next n bytes, n being 2 plus the position of `X` in ``runLengths`` (`A` = 2 … `_` = 65); every other
/// character for itself. The markers count bytes (a replaced `é` takes two), and the result is read as UTF-8.
enum ProofpointV3 {
    /// The characters that give a run's length after `**`, in order: `A` is 2.
    static let runLengths = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Why a v3 form cannot be decoded.
    struct Problem: Error {
        var reason: String
    }

    /// The original link's text from `text`, the part of a wrapper link's canonical text after `/v3/__`; output longer
    /// than `maximumLength` bytes stops the decoding (the link parser would refuse it).
    static func decode(_ text: Substring, maximumLength: Int) -> Result<String, Problem> {
        let bytes = Array(text.utf8)
        guard let end = firstIndex(of: Array("__;".utf8), in: bytes) else {
            return .failure(Problem(reason: "it has no \"__;\" after the link (a truncated v3 link?)"))
        }
        let link = bytes[..<end]
        var dataEnd = end + 3
        while dataEnd < bytes.count, bytes[dataEnd] != UInt8(ascii: "!") { dataEnd += 1 }
        let dataText = String(decoding: bytes[(end + 3)..<dataEnd], as: UTF8.self)
        guard let data = FormDecoding.base64(dataText, urlSafe: true), !dataText.contains("=") else {
            return .failure(Problem(reason: "its data after \"__;\", \"\(preview(dataText))\", is not base64url"))
        }
        var output: [UInt8] = []
        output.reserveCapacity(link.count)
        var used = 0
        var index = link.startIndex
        while index < link.endIndex {
            guard output.count <= maximumLength else {
                return .failure(Problem(reason: "the link it holds is longer than \(maximumLength) bytes"))
            }
            let byte = link[index]
            guard byte == UInt8(ascii: "*") else {
                output.append(byte)
                index += 1
                continue
            }
            var count = 1
            if index + 1 < link.endIndex, link[index + 1] == UInt8(ascii: "*") {
                guard index + 2 < link.endIndex else {
                    return .failure(Problem(reason: "its link ends with \"**\", with no length after it"))
                }
                guard let position = runLengths.firstIndex(of: link[index + 2]) else {
                    let marker = String(decoding: link[index...(index + 2)], as: UTF8.self)
                    return .failure(Problem(reason: "its marker \"\(marker)\" has no length (A to _)"))
                }
                count = 2 + position
                index += 3
            } else {
                index += 1
            }
            guard used + count <= data.count else {
                return .failure(
                    Problem(
                        reason:
                            "a marker stands for \(count == 1 ? "a byte" : "\(count) bytes") where its data has \(data.count - used == 0 ? "none" : "\(data.count - used)") left"
                    )
                )
            }
            output += data[used..<(used + count)]
            used += count
        }
        guard output.count <= maximumLength else {
            return .failure(Problem(reason: "the link it holds is longer than \(maximumLength) bytes"))
        }
        guard let decoded = FormDecoding.validText(output) else {
            return .failure(Problem(reason: "its link with the data put back is not UTF-8"))
        }
        return .success(decoded)
    }

    private static func firstIndex(of needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var index = 0
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0], bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    static func preview(_ text: String) -> String {
        text.count > 40 ? String(text.prefix(37)) + "…" : text
    }
}
