import WebLinks

/// A file as served: its body (a 200), or why there is none.
public enum AssetLinksFile: Sendable, Equatable {
    /// The body of a 200 answer.
    case body([UInt8])
    /// No usable answer (not found, another status, a redirect, a network failure), in a few words.
    case unavailable(String)
}

/// Where the checker gets statement lists: the protocol's `files`, a fixture, or the network through the fetching layer
/// and its HTTP cache (DomainClaimsStage's source, over a resolution's fetcher).
public protocol AssetLinksSource: Sendable {
    /// The file at `url` (an https or http URL, as written in the query or in an `include`).
    func file(at url: String) async -> AssetLinksFile
}

/// Files given up front, by URL: the conformance protocol's `files`, and tests. Keys are compared as canonical links
/// (`HTTPS://Example.com/x` is `https://example.com/x`).
public struct AssetLinksFiles: AssetLinksSource {
    private let bodies: [String: [UInt8]]

    /// Files by URL.
    public init(_ files: [String: String]) {
        var bodies: [String: [UInt8]] = [:]
        for (url, body) in files { bodies[Self.key(url)] = Array(body.utf8) }
        self.bodies = bodies
    }

    /// The file at `url`, or "not found".
    public subscript(url: String) -> AssetLinksFile {
        bodies[Self.key(url)].map(AssetLinksFile.body) ?? .unavailable("not found")
    }

    /// The file at `url`, or "not found" (``subscript(_:)``, asynchronously).
    public func file(at url: String) async -> AssetLinksFile { self[url] }

    private static func key(_ url: String) -> String { (try? Link(url))?.text ?? url }
}

/// The question Google's Digital Asset Links API answers: does `source` link to `target` for `relation`?
public struct AssetLinksQuery: Sendable, Equatable {
    /// The site whose statements are read.
    public var source: AssetSite
    /// The relation asked about.
    public var relation: String
    /// The app or site asked about.
    public var target: AssetTarget

    /// A query from its parts.
    public init(source: AssetSite, relation: String, target: AssetTarget) {
        self.source = source
        self.relation = relation
        self.target = target
    }
}

/// The answer to an ``AssetLinksQuery``.
public struct AssetLinksAnswer: Sendable, Equatable {
    /// The API's outcomes.
    public enum Outcome: String, Sendable, Equatable, Codable {
        /// Every list was read and every statement in them is valid.
        case success
        /// Something went wrong on the way, said beside the answer as Google's API says it: the source's own list is
        /// missing or unusable (then nothing is linked), or a statement is invalid or an include failed (then
        /// ``AssetLinksAnswer/linked`` still reflects the valid statements).
        case fetchError = "fetch_error"
        /// The query can never succeed: a malformed source, relation or target.
        case queryParsingError = "query_parsing_error"
    }

    /// The outcome.
    public var outcome: Outcome
    /// Whether a valid statement links the source to the target for the relation (false when the query is malformed
    /// or the source's own list cannot be read; a statement that is invalid, or an include that failed, does not
    /// change it).
    public var linked: Bool
    /// The statement that links them: its file and pointer.
    public var statement: (file: String, pointer: JSONPointer)?
    /// Why the outcome is not a success, or what was dropped, in sentences.
    public var notes: [String]

    /// An answer as given (the checker makes them; the command line's protocol answers a malformed line with one).
    package init(outcome: Outcome, linked: Bool, statement: (file: String, pointer: JSONPointer)?, notes: [String]) {
        self.outcome = outcome
        self.linked = linked
        self.statement = statement
        self.notes = notes
    }

    /// Compares outcome, link and statement.
    public static func == (lhs: AssetLinksAnswer, rhs: AssetLinksAnswer) -> Bool {
        lhs.outcome == rhs.outcome && lhs.linked == rhs.linked && lhs.statement?.file == rhs.statement?.file
            && lhs.statement?.pointer == rhs.statement?.pointer
    }
}

/// Answers ``AssetLinksQuery``s as Google's Digital Asset Links API does, reading the lists through a source.
///
/// The source's list must be usable (a 200 with a JSON array) or the answer is ``AssetLinksAnswer/Outcome/fetchError``
/// with nothing linked. `include`s are followed breadth-first up to ``maximumIncludeDepth``, every one of them (an
/// error further down is reported even when an earlier statement links): one that is missing, unusable, deeper, from
/// https to http drops only itself, and so does a statement that is invalid, while the answer's outcome becomes
/// ``AssetLinksAnswer/Outcome/fetchError`` and ``AssetLinksAnswer/linked`` still says what the valid statements say.
/// An include already read is not read again, and is no error.
public struct AssetLinksChecker: Sendable {
    /// How deep includes go (an include in the source's own list is depth 1).
    public static let maximumIncludeDepth = 5

    /// Where the lists come from.
    public let source: any AssetLinksSource

    /// A checker reading through `source`.
    public init(source: any AssetLinksSource) {
        self.source = source
    }

    /// The answer to `query`.
    public func check(_ query: AssetLinksQuery) async -> AssetLinksAnswer {
        var walk = IncludeWalk(query: query)
        while let url = walk.next() {
            walk.received(await source.file(at: url), from: url)
        }
        return walk.answer
    }

    /// Every statement list of `site`: its own and, breadth-first, its includes' (as ``check(_:)`` follows them), with
    /// what was dropped on the way.
    public func statementLists(of site: AssetSite) async -> AssetStatementLists {
        var walk = IncludeWalk(site: site)
        while let url = walk.next() {
            walk.received(await source.file(at: url), from: url)
        }
        return AssetStatementLists(lists: walk.lists, notes: walk.notes, isUsable: !walk.failed)
    }

    /// The answer to `query` with files given up front (no suspension).
    public static func check(_ query: AssetLinksQuery, files: AssetLinksFiles) -> AssetLinksAnswer {
        var walk = IncludeWalk(query: query)
        while let url = walk.next() {
            walk.received(files[url], from: url)
        }
        return walk.answer
    }
}

/// A site's statement lists: its own first, then its includes', breadth-first.
public struct AssetStatementLists: Sendable {
    /// Each list read, with its URL, in the order read.
    public var lists: [(url: String, list: AssetStatementList)]
    /// What was dropped (includes missing, unusable, too deep, from https to http), or why the site's own list cannot
    /// be used, in sentences.
    public var notes: [String]
    /// Whether the site's own list was read (a 200 with a JSON array).
    public var isUsable: Bool

    /// Lists read elsewhere (a caller that has a site's files at hand), with what was dropped.
    public init(lists: [(url: String, list: AssetStatementList)], notes: [String] = [], isUsable: Bool = true) {
        self.lists = lists
        self.notes = notes
        self.isUsable = isUsable
    }
}

/// The statement lists of one query (or of one site, all of them), read breadth-first: the caller fetches each URL
/// ``next()`` names.
struct IncludeWalk {
    let query: AssetLinksQuery?
    private var queue: [(url: String, depth: Int, secure: Bool)]
    private var seen: Set<String> = []
    /// The source's own list could not be read.
    private(set) var failed = false
    /// A statement was invalid or an include failed: the answer says so beside what the rest links.
    private(set) var erred = false
    private(set) var notes: [String] = []
    /// Every list read, when walking a whole site (no query).
    private(set) var lists: [(url: String, list: AssetStatementList)] = []
    private var found: (file: String, pointer: JSONPointer)?
    private var current: (url: String, depth: Int, secure: Bool)?

    init(query: AssetLinksQuery) {
        self.query = query
        queue = [(query.source.statementListURL, 0, query.source.scheme == "https")]
        seen = [query.source.statementListURL]
    }

    init(site: AssetSite) {
        query = nil
        queue = [(site.statementListURL, 0, site.scheme == "https")]
        seen = [site.statementListURL]
    }

    /// The next URL to fetch, or nil when done.
    mutating func next() -> String? {
        guard !failed, !queue.isEmpty else { return nil }
        current = queue.removeFirst()
        return current?.url
    }

    mutating func received(_ file: AssetLinksFile, from url: String) {
        guard let current, current.url == url else { return }
        let list: AssetStatementList
        do throws(DomainClaimsError) {
            guard case .body(let bytes) = file else {
                if case .unavailable(let reason) = file {
                    throw DomainClaimsError(code: .notADocument, message: reason)
                }
                return
            }
            list = try AssetStatementList(bytes: bytes)
        } catch {
            if current.depth == 0 {
                failed = true
                notes.append("the statement list \(url) cannot be used: \(error.description)")
            } else {
                drop("the include \(url) is dropped: \(error.description)")
            }
            return
        }
        for diagnostic in list.diagnostics where StatementReader.invalidStatementCodes.contains(diagnostic.code) {
            drop("\(url) at \(diagnostic.pointer): \(diagnostic.message)")
        }
        if let query {
            if found == nil,
                let statement = list.statements.first(where: {
                    $0.relation == query.relation && $0.target == query.target
                })
            {
                found = (url, statement.pointer)
            }
        } else {
            lists.append((url, list))
        }
        for include in list.includes {
            guard current.depth < AssetLinksChecker.maximumIncludeDepth else {
                drop(
                    "the include \(include.url) in \(url) is dropped: includes go \(AssetLinksChecker.maximumIncludeDepth) deep at most"
                )
                continue
            }
            guard let link = try? Link(include.url) else {
                drop("the include \"\(include.url)\" in \(url) is dropped: it is not an http(s) URL")
                continue
            }
            if current.secure && link.scheme != "https" {
                drop("the include \(link.text) in \(url) is dropped: an https list may not include an http one")
                continue
            }
            guard seen.insert(link.text).inserted else { continue }
            queue.append((link.text, current.depth + 1, link.scheme == "https"))
        }
    }

    /// Something dropped on the way: noted, and the answer's outcome becomes a fetch error.
    private mutating func drop(_ note: String) {
        erred = true
        notes.append(note)
    }

    var answer: AssetLinksAnswer {
        if failed { return AssetLinksAnswer(outcome: .fetchError, linked: false, statement: nil, notes: notes) }
        return AssetLinksAnswer(
            outcome: erred ? .fetchError : .success,
            linked: found != nil,
            statement: found,
            notes: notes
        )
    }
}
