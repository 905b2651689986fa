import Foundation

/// What the manifest and user-layer loaders share: a file read through ``UserFile`` under a byte limit, and its bytes
/// parsed into a located JSON tree; `what` names the document in messages ("manifest", "user layer").
enum JSONDocumentReader {
    /// The bytes of the file at `path` (`E_TOO_LARGE` over `maximumBytes`, `E_READ` with the reason in a few words);
    /// `name` is how errors name the file.
    static func read(_ path: String, name: String, maximumBytes: Int, what: String) throws(ManifestError) -> [UInt8] {
        do {
            return Array(try UserFile.read(path, maximumBytes: maximumBytes))
        } catch {
            if case .tooLarge = error.reason {
                throw ManifestError(
                    code: .tooLarge,
                    message: "the \(what) has more bytes than the limit of \(maximumBytes)",
                    file: name
                )
            }
            throw ManifestError(code: .unreadable, message: error.sentence(what), file: name)
        }
    }

    /// The JSON tree of `bytes` (`E_TOO_LARGE`, or `E_JSON_SYNTAX`, `E_ENCODING`, `E_DEPTH` at their position).
    static func parse(
        _ bytes: [UInt8],
        file: String?,
        maximumBytes: Int,
        what: String
    ) throws(ManifestError)
        -> JSONNode
    {
        guard bytes.count <= maximumBytes else {
            throw ManifestError(
                code: .tooLarge,
                message: "the \(what) has \(bytes.count) bytes, more than the limit of \(maximumBytes)",
                file: file
            )
        }
        do {
            return try JSONReader().parse(bytes)
        } catch {
            let code: ManifestError.Code =
                switch error.code {
                case .syntax: .syntax
                case .encoding: .encoding
                case .depth: .depth
                }
            throw ManifestError(
                code: code,
                message: "invalid JSON: \(error.message)",
                file: file,
                position: error.position
            )
        }
    }
}
