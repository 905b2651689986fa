import Foundation
import WebLinks

/// Serves responses from fixtures written by ``RecordingFetcher`` (`--replay DIR`), never touching the network.
public struct ReplayingFetcher: LinkFetching {
    /// The folder holding the fixtures.
    public let directory: URL

    /// Creates a replayer reading from `directory`.
    public init(directory: URL) {
        self.directory = directory
    }

    /// Returns the recorded response for `request`, or throws `.notRecorded`.
    public func fetch(_ request: FetchRequest) async throws(FetchError) -> FetchResponse {
        let file = directory.appendingPathComponent(Fixture.fileName(for: request))
        guard FileManager.default.fileExists(atPath: file.path) else {
            throw FetchError(
                .notRecorded,
                url: request.url.text,
                message:
                    "No fixture for \(request.method.rawValue) '\(request.url)' in '\(directory.path)' (expected \(file.lastPathComponent)); record it with --record."
            )
        }
        let fixture: Fixture
        do {
            fixture = try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: file))
        } catch {
            throw FetchError(
                .storage,
                url: request.url.text,
                message: "The fixture '\(file.path)' for '\(request.url)' cannot be read as a fixture."
            )
        }
        guard fixture.url == request.url.text, fixture.method == request.method else {
            throw FetchError(
                .storage,
                url: request.url.text,
                message: "The fixture '\(file.path)' records '\(fixture.url)', not '\(request.url)'."
            )
        }
        return try fixture.response()
    }
}
