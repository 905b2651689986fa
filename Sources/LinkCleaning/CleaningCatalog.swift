import Crypto
import Foundation
import LinkFetching
import LinkRules

/// A ClearURLs rule catalog (`data.min.json`), decoded with located problems and every regex translated from
/// JavaScript and compiled.
///
/// A catalog that is not JSON, or has no `providers` object, throws ``CleaningError``. A provider or a regex that
/// cannot be used is left out and reported in ``diagnostics`` with its JSON pointer and line:column
/// (`/providers/amazon/rules/7`); the rest of the catalog is used, as the add-on uses it.
public struct CleaningCatalog: Sendable, Equatable {
    /// The usable providers, in catalog order.
    public var providers: [CleaningProvider]
    /// What was left out or looks wrong, in catalog order.
    public var diagnostics: [Diagnostic]
    /// The SHA-256 (lower-case hexadecimal) of the bytes the catalog was decoded from; nil for a catalog made from
    /// providers. A cleaner's ``LinkCleaner/identity`` is made from it.
    public var sha256: String? = nil

    /// Creates a catalog from providers already decoded.
    public init(providers: [CleaningProvider], diagnostics: [Diagnostic] = []) {
        self.providers = providers
        self.diagnostics = diagnostics
    }

    /// Decodes the catalog JSON; `file` names it in diagnostics.
    public init(data: Data, file: String? = nil) throws(CleaningError) {
        self = try CatalogDecoder(file: file).decode(Array(data))
        sha256 = Self.sha256Hex(data)
    }

    /// Decodes the catalog JSON given as text; `file` names it in diagnostics.
    public init(json: String, file: String? = nil) throws(CleaningError) {
        self = try CatalogDecoder(file: file).decode(Array(json.utf8))
        sha256 = Self.sha256Hex(Data(json.utf8))
    }

    /// The regexes left out because they cannot be translated or compiled (code `E_CLEANING_REGEX`).
    public var refusedPatterns: [Diagnostic] { diagnostics.filter { $0.code == CatalogDecoder.refusedCode } }

    /// The lower-case hexadecimal SHA-256 of `data`, as ClearURLs publishes it (`rules.minify.hash`).
    public static func sha256Hex(_ data: Data) -> String {
        StableHash.hexadecimal(SHA256.hash(data: data))
    }

    /// Checks `data` against the published hash (64 hexadecimal digits; surrounding white space and upper-case
    /// digits are accepted); throws ``CleaningError/Code/hashMismatch`` when they differ.
    public static func verify(data: Data, sha256Hex expected: String) throws(CleaningError) {
        try verify(data: data, sha256Hex: expected, formatOnly: false)
    }

    /// Checks the hash text's format, and `data` against it unless `formatOnly`.
    static func verify(data: Data, sha256Hex expected: String, formatOnly: Bool) throws(CleaningError) {
        let published = expected.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard published.utf8.count == 64, published.utf8.allSatisfy({ Self.isHexDigit($0) }) else {
            let preview = published.count > 80 ? String(published.prefix(80)) + "…" : published
            throw CleaningError(
                .invalidHash,
                "the published hash \"\(preview)\" is not a SHA-256 (64 hexadecimal digits)"
            )
        }
        if formatOnly { return }
        let actual = sha256Hex(data)
        guard actual == published else {
            throw CleaningError(
                .hashMismatch,
                "the catalog's SHA-256 is \(actual), not the published \(published): the download is corrupt or was changed, so it is refused"
            )
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
