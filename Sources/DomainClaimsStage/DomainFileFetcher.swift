import HTTPTypes
import LinkFetching
import LinkResolution
import WebLinks

/// Fetches the files a domain publishes about itself (apple-app-site-association, assetlinks.json) the way the
/// platforms fetch them, through a resolution's network (its HTTP cache, per-host limits and host state, network
/// policy): https only; redirects not followed (a 3xx means no file, and says where it pointed); at most
/// ``maximumBytes``, refused without being read to the end; a `Content-Type` other than JSON is a note, not a refusal;
/// everything before the resolution's deadline.
///
/// A missing or redirected file, or one its server refuses, is remembered by the fetching layer's HTTP cache for
/// ``unusableFileLifetime`` when its server says nothing about caching (`FetchRequest.fallbackFreshness`), so that
/// every resolution of a site without such a file does not ask again; what the server does say (`Cache-Control`,
/// `Expires`) decides otherwise. A host that cannot be reached is not asked again while it is down (the stack's
/// `PoliteFetcher` keeps that per host).
package struct DomainFileFetcher: Sendable {
    /// The most bytes of a file read (Apple's limit for apple-app-site-association: 128 KiB).
    package static let maximumBytes = 128 * 1024
    /// How long an answer that says nothing about its own freshness is kept: a minute, as the fetching layer keeps a
    /// failure.
    package static let unusableFileLifetime: Duration = .seconds(60)

    /// The network.
    package let fetcher: any LinkFetching
    /// When every fetch must be done.
    package let deadline: ContinuousClock.Instant

    /// Fetches through `fetcher` until `deadline`.
    package init(fetcher: any LinkFetching, deadline: ContinuousClock.Instant) {
        self.fetcher = fetcher
        self.deadline = deadline
    }

    /// The first of `urls` that serves a file, trying them in order (`.well-known` then the root, for
    /// apple-app-site-association); the attempts before it are kept, each with why it gave nothing.
    package func firstFile(of urls: [Link]) async -> DomainFile {
        var attempts: [DomainFile.Attempt] = []
        for url in urls {
            let attempt = await file(at: url)
            attempts.append(attempt)
            if attempt.body != nil { break }
        }
        return DomainFile(attempts: attempts)
    }

    /// One fetch of `url`.
    package func file(at url: Link) async -> DomainFile.Attempt {
        var attempt = DomainFile.Attempt(url: url.text)
        guard url.scheme == "https" else {
            attempt.problem = "it is not https: domain files are only read over https"
            attempt.cacheability = .unlimited
            return attempt
        }
        let timeLeft = deadline - ContinuousClock.now
        guard timeLeft > .zero else {
            attempt.problem = "the resolution's time ran out before it was asked"
            attempt.cacheability = .uncacheable(reason: "the time ran out before \(url.text) was asked")
            return attempt
        }
        let request = FetchRequest(
            url: url,
            headers: [.accept: "application/json"],
            followRedirects: false,
            timeout: timeLeft,
            maximumBodyBytes: Self.maximumBytes,
            fallbackFreshness: Self.unusableFileLifetime
        )
        let response: FetchResponse
        do {
            response = try await fetcher.fetch(request)
        } catch {
            attempt.problem = "\(error.message) [\(error.identifier)]"
            attempt.cacheability = Self.cacheability(error.freshness, url: url)
            return attempt
        }
        attempt.status = response.status
        attempt.age = response.headers[.age].flatMap { Int($0) } ?? 0
        attempt.cacheability = Self.cacheability(response.freshness, url: url)
        attempt.isStale = response.cacheStatus == .stale
        switch response.status {
        case 200:
            guard response.body.count <= Self.maximumBytes else {
                attempt.problem =
                    "it has \(response.body.count) bytes, more than the \(Self.maximumBytes) (128 KiB) the platforms read"
                return attempt
            }
            let type = response.headers[.contentType] ?? ""
            // A media type has no spaces of its own: what is around it goes.
            let mediaType = (type.split(separator: ";").first ?? "").filter { $0 != " " && $0 != "\t" }
            if mediaType.lowercased() != "application/json" {
                attempt.notes.append(
                    "it is served as \(type.isEmpty ? "no Content-Type" : "'\(type)'"), not application/json: read anyway, as the platforms do"
                )
            }
            attempt.body = response.body
        case 300...399:
            let location = response.headers[.location].map { " to \($0)" } ?? ""
            attempt.problem =
                "it redirects (\(response.status))\(location): redirects are not followed, so it claims nothing"
        default:
            attempt.problem = "its server answered \(response.status)"
        }
        return attempt
    }

    /// How long what was learnt from one fetch stands.
    private static func cacheability(_ freshness: Duration?, url: Link) -> Cacheability {
        guard let freshness, freshness > .zero else {
            return .uncacheable(reason: "the answer for \(url.text) may not be reused")
        }
        return .upTo(freshness)
    }
}

/// What fetching a domain file gave: each place tried, in order, the last one with the file when there is one.
package struct DomainFile: Sendable, Equatable {
    /// One fetch.
    package struct Attempt: Sendable, Equatable {
        /// The URL asked.
        package var url: String
        /// The status the server answered (nil: no answer).
        package var status: Int?
        /// The file's bytes (a 200 within the size limit), nil when there is no file here.
        package var body: [UInt8]?
        /// Why there is no file here, in a sentence's end ("its server answered 404").
        package var problem: String?
        /// Remarks (a wrong `Content-Type`).
        package var notes: [String] = []
        /// How old the copy was, in whole seconds (its `Age`).
        package var age: Int = 0
        /// Whether the copy is a stale one given because the server failed (stale-if-error).
        package var isStale = false
        /// How long this answer stands.
        package var cacheability = Cacheability.unlimited

        /// An attempt at `url` that has not been made.
        package init(url: String) {
            self.url = url
        }
    }

    /// Every place tried, in order.
    package var attempts: [Attempt]

    /// Creates a result from its attempts.
    package init(attempts: [Attempt]) {
        self.attempts = attempts
    }

    /// The file's bytes, when one of the places served it.
    package var body: [UInt8]? { attempts.last?.body }
    /// The URL of the file, or of the last place tried.
    package var url: String { attempts.last?.url ?? "" }
    /// The attempt that served the file, or the last one.
    package var final: Attempt? { attempts.last }
    /// How long everything learnt stands: the shortest of the attempts'.
    package var cacheability: Cacheability {
        attempts.reduce(Cacheability.unlimited) { $0.combined(with: $1.cacheability) }
    }
}
