import Foundation
import LinkRules

/// Fuzzes the manifest loader (`ManifestLoader().load(bytes, file:)`) with arbitrary bytes.
///
/// Invariants: loading never crashes or hangs; a refused file gets an error whose position lies inside the input;
/// a loaded one gets diagnostics whose positions lie inside it; loading the same bytes twice gives the same
/// manifest and the same diagnostics (no hidden state, no order that depends on hashing).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    let first = ManifestLoaderFuzzer.load(bytes)
    let second = ManifestLoaderFuzzer.load(bytes)
    switch (first, second) {
    case (.success(let loaded), .success(let again)):
        fuzzExpect(loaded.manifest == again.manifest, "two loads of the same bytes gave different manifests")
        fuzzExpect(loaded.diagnostics == again.diagnostics, "two loads of the same bytes gave different diagnostics")
        for diagnostic in loaded.diagnostics {
            ManifestLoaderFuzzer.checkPosition(diagnostic.position, in: bytes, what: diagnostic.description)
            fuzzExpect(
                !diagnostic.code.isEmpty && !diagnostic.message.isEmpty,
                "a diagnostic without code or message: \(diagnostic)"
            )
        }
        ManifestLoaderFuzzer.checkPointers(loaded)
    case (.failure(let error), .failure(let again)):
        fuzzExpect(error == again, "two loads of the same bytes failed differently: \(error) / \(again)")
        ManifestLoaderFuzzer.checkPosition(error.position, in: bytes, what: error.description)
        fuzzExpect(!error.message.isEmpty, "a manifest error without a message: \(error)")
    default:
        fuzzExpect(false, "two loads of the same bytes disagreed on success: \(first) / \(second)")
    }
    return 0
}

/// The checks of the manifest loader target.
enum ManifestLoaderFuzzer {
    /// One load, as a `Result` so that two runs can be compared.
    static func load(_ bytes: [UInt8]) -> Result<LoadedManifest, ManifestError> {
        do throws(ManifestError) {
            return .success(try ManifestLoader().load(bytes, file: "fuzz.json"))
        } catch {
            return .failure(error)
        }
    }

    /// A reported position must be a real place in the input: 1-based line and column, offset within the bytes
    /// (the end of the input is a valid place for "unexpected end").
    static func checkPosition(_ position: SourcePosition?, in bytes: [UInt8], what: @autoclosure () -> String) {
        guard let position else { return }
        fuzzExpect(position.line >= 1 && position.column >= 1, "position \(position) is not 1-based: \(what())")
        fuzzExpect(
            position.offset >= 0 && position.offset <= bytes.count,
            "offset \(position.offset) is outside the \(bytes.count)-byte input: \(what())"
        )
        let newlines = bytes.prefix(position.offset).count { $0 == UInt8(ascii: "\n") }
        fuzzExpect(
            position.line <= newlines + 1,
            "line \(position.line) is past the input's \(newlines + 1) lines: \(what())"
        )
    }

    /// Every entry that loaded keeps a pointer the parsed document can locate (the CLI and the playground print
    /// `file:line:column` for them).
    static func checkPointers(_ loaded: LoadedManifest) {
        let manifest = loaded.manifest
        let pointers =
            manifest.apps.map(\.pointer) + manifest.actions.map(\.pointer)
            + manifest.actions.flatMap { $0.formats.map(\.pointer) } + manifest.browsers.map(\.pointer)
            + manifest.previews.map(\.pointer) + manifest.redirects.map(\.pointer)
        for pointer in pointers {
            fuzzExpect(
                loaded.position(of: pointer) != nil,
                "the loaded entry at \(pointer) has no position in the document"
            )
        }
    }
}
