import Foundation
import HTTPTypes
import WebLinks

/// The persistent store under the ``HTTPCache``: one stored response of a URL in a folder, kept across runs for
/// ``CachedDownloader`` (manifests, catalogs), with everything RFC 9111 needs to judge it later, on the cache's clock.
///
/// A metadata file points at a body file whose name carries the hash of its content, so switching copies is one
/// atomic rename of the metadata file: a crash at any point leaves either the old pair or the new one, never a
/// metadata file describing a half-written body. Each file is written to a temporary name, then renamed. A copy
/// that fails its length or hash check is treated as absent.
struct CacheStore {
    /// A stored response as written on disk.
    struct Record: Codable, Equatable {
        var url: String
        var method: FetchRequest.Method
        var status: Int
        /// The fields, in server order, as name and value.
        var headers: [[String]]
        var requestTime: Date
        var responseTime: Date
        var dateValue: Date
        var selecting: [String: String?]
        var fallbackLifetime: TimeInterval?
        var bodyLength: Int
        var bodyHash: String
    }

    let directory: URL
    let url: String

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    private var key: String { StableHash.hex(url) }
    private var metadataFile: URL { directory.appendingPathComponent("\(key).meta.json") }
    private func bodyFile(hash: String) -> URL { directory.appendingPathComponent("\(key)-\(hash).body") }

    /// The stored response, or nil when there is none, it is not this URL's, or it fails its integrity check.
    func read() -> StoredResponse? {
        guard let data = try? Data(contentsOf: metadataFile),
            let record = try? Self.decoder.decode(Record.self, from: data), record.url == url,
            let link = try? Link(url),
            let body = try? Data(contentsOf: bodyFile(hash: record.bodyHash)),
            body.count == record.bodyLength, StableHash.hex(body) == record.bodyHash
        else { return nil }
        var fields = HTTPFields()
        for pair in record.headers where pair.count == 2 {
            guard let name = HTTPField.Name(pair[0]) else { return nil }
            fields.append(HTTPField(name: name, value: pair[1]))
        }
        return StoredResponse(
            url: url,
            method: record.method,
            response: FetchResponse(url: link, status: record.status, headers: fields, body: Array(body)),
            requestTime: record.requestTime,
            responseTime: record.responseTime,
            dateValue: record.dateValue,
            selecting: record.selecting,
            control: CacheControl(fields),
            fallbackLifetime: record.fallbackLifetime
        )
    }

    /// Stores `entry`: body first, then the metadata that points at it, then removes the previous body.
    func write(_ entry: StoredResponse) throws(FetchError) {
        let previous = (try? Data(contentsOf: metadataFile)).flatMap { try? Self.decoder.decode(Record.self, from: $0) }
        let body = Data(entry.response.body)
        let record = Record(
            url: url,
            method: entry.method,
            status: entry.response.status,
            headers: entry.response.headers.map { [$0.name.rawName, $0.value] },
            requestTime: entry.requestTime,
            responseTime: entry.responseTime,
            dateValue: entry.dateValue,
            selecting: entry.selecting,
            fallbackLifetime: entry.fallbackLifetime,
            bodyLength: body.count,
            bodyHash: StableHash.hex(body)
        )
        if previous?.bodyHash != record.bodyHash || read() == nil {
            try atomicWrite(body, to: bodyFile(hash: record.bodyHash))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        let data: Data
        do { data = try encoder.encode(record) } catch { throw failure("encode the metadata of the stored copy") }
        try atomicWrite(data, to: metadataFile)
        if let previous, previous.bodyHash != record.bodyHash {
            try? FileManager.default.removeItem(at: bodyFile(hash: previous.bodyHash))
        }
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
                message: "Keeping '\(url)' failed: \(error.message(for: "cache file"))."
            )
        }
    }

    private func failure(_ action: String) -> FetchError {
        FetchError(.storage, url: url, message: "Keeping '\(url)' failed: cannot \(action).")
    }
}
