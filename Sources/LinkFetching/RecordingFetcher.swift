import Foundation
import WebLinks

/// Passes requests to another fetcher and saves each response as a JSON fixture (`--record DIR`).
///
/// Failed requests are not recorded: replaying them would need the error, and a fixture should show what the
/// server said. Record against a loopback server or the real service, then replay with ``ReplayingFetcher``.
public struct RecordingFetcher: LinkFetching {
    /// The fetcher that does the real work.
    public let wrapped: any LinkFetching
    /// The folder fixtures are written to (created when missing).
    public let directory: URL

    /// Creates a recorder around `wrapped` that writes to `directory`.
    public init(wrapping wrapped: any LinkFetching, directory: URL) {
        self.wrapped = wrapped
        self.directory = directory
    }

    /// Fetches through the wrapped fetcher, then writes the fixture (WebLinks' `UserFile.write(_:to:)`).
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        let response = try await wrapped.fetch(request)
        let file = directory.appendingPathComponent(Fixture.fileName(for: request))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            // Through the one writer (UserFile): the fixture replaced atomically, a linked folder or file followed.
            try UserFile.createDirectory(directory.path)
            try UserFile.write(try encoder.encode(Fixture(request: request, response: response)), to: file.path)
        } catch let error as UserFileError {
            throw FetchError(
                .storage,
                url: request.url.text,
                message: "Recording '\(request.url)' failed: \(error.message(for: "fixture"))."
            )
        } catch {
            throw FetchError(.storage, url: request.url.text, message: "Recording '\(request.url)' failed: \(error).")
        }
        return response
    }
}
