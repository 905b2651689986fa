import Foundation
import WebLinks

/// The on-disk entry of one ``CachedDownloader`` URL: a metadata file pointing at a body file.
///
/// The body's file name carries the hash of its content and the metadata names it, so switching copies is one
/// atomic rename of the metadata file: a crash at any point leaves either the old pair or the new one, never a
/// metadata file describing a half-written body. Each file is written to a temporary name, then renamed.
struct CacheStore {
    /// What is known about the stored copy.
    struct Metadata: Codable, Equatable {
        var url: String
        var etag: String?
        var lastModified: String?
        var fetchedAt: Date
        var bodyLength: Int
        var bodyHash: String
    }

    /// A stored copy that passed its integrity check.
    struct Entry {
        var metadata: Metadata
        var body: Data
    }

    let directory: URL
    let url: String

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    private var key: String { StableHash.hex(url) }
    private var metadataFile: URL { directory.appendingPathComponent("\(key).meta.json") }
    private func bodyFile(hash: String) -> URL { directory.appendingPathComponent("\(key)-\(hash).body") }

    /// The stored copy, or nil when there is none or it fails its length/hash check (treated as absent).
    func read() -> Entry? {
        guard let data = try? Data(contentsOf: metadataFile),
            let metadata = try? Self.decoder.decode(Metadata.self, from: data), metadata.url == url,
            let body = try? Data(contentsOf: bodyFile(hash: metadata.bodyHash)),
            body.count == metadata.bodyLength, StableHash.hex(body) == metadata.bodyHash
        else { return nil }
        return Entry(metadata: metadata, body: body)
    }

    /// Stores a new copy: body first, then the metadata that points at it, then removes the previous body.
    func write(body: Data, metadata: Metadata) throws(FetchError) {
        let previous = (try? Data(contentsOf: metadataFile)).flatMap {
            try? Self.decoder.decode(Metadata.self, from: $0)
        }
        try atomicWrite(body, to: bodyFile(hash: metadata.bodyHash))
        try writeMetadata(metadata)
        if let previous, previous.bodyHash != metadata.bodyHash {
            try? FileManager.default.removeItem(at: bodyFile(hash: previous.bodyHash))
        }
    }

    /// Replaces the metadata (for example a refreshed date after 304).
    func writeMetadata(_ metadata: Metadata) throws(FetchError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let data: Data
        do {
            data = try encoder.encode(metadata)
        } catch {
            // Dates, strings and numbers always encode; said without Foundation's text should it ever fail.
            throw FetchError(.storage, url: url, message: "Caching '\(url)' failed: its metadata cannot be encoded.")
        }
        try atomicWrite(data, to: metadataFile)
    }

    /// Through the one writer (UserFile): a temporary file renamed over the old one, in a folder created when missing.
    private func atomicWrite(_ data: Data, to file: URL) throws(FetchError) {
        do {
            try UserFile.createDirectory(directory.path)
            try UserFile.write(data, to: file.path)
        } catch {
            throw FetchError(
                .storage,
                url: url,
                message: "Caching '\(url)' failed: \(error.message(for: "cache file"))."
            )
        }
    }
}
