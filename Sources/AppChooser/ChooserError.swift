/// Why the chooser could not answer; the message names the type, action, app or file.
public struct ChooserError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of problem, with a stable code for scripts and tests.
    public enum Code: String, Sendable, Equatable {
        /// Catalog data that is not Choosy's app-type JSON, or a catalog folder or resource that is missing.
        case invalidCatalog = "E_CATALOG"
        /// No app type has the key asked for.
        case unknownType = "E_UNKNOWN_TYPE"
        /// The app type has no action with the key asked for.
        case unknownAction = "E_UNKNOWN_ACTION"
        /// The app type has no app with the key asked for.
        case unknownApp = "E_UNKNOWN_APP"
        /// The app type takes no parameter with the key given.
        case unknownParameter = "E_UNKNOWN_PARAMETER"
        /// The action fills parameters and none was given a value.
        case missingParameter = "E_MISSING_PARAMETER"
        /// The choices database could not be opened, read or written.
        case store = "E_STORE"
        /// A site that is not a host name (a link, a path, a port, a user name) or not a valid one.
        case invalidSite = "E_INVALID_SITE"
        /// A site whose subdomains belong to many owners (`com`, `co.uk`, an IP address): its subdomains cannot be
        /// remembered together.
        case publicSuffix = "E_PUBLIC_SUFFIX"
        /// No choice is remembered for the site asked for.
        case noSiteChoice = "E_NO_SITE_CHOICE"
    }

    /// The kind of problem.
    public var code: Code
    /// One sentence naming the type, action, app or site at fault (never the file: see ``file``).
    public var message: String
    /// The file or folder at fault (a choices store, a catalog file), as it was given; a front end shows it or not
    /// (the CLI writes `FILE: error: message`, a server keeps its own paths out of its answers).
    public var file: String?

    /// Creates an error.
    public init(_ code: Code, _ message: String, file: String? = nil) {
        self.code = code
        self.message = message
        self.file = file
    }

    /// `message [code]`.
    public var description: String { "\(message) [\(code.rawValue)]" }
}
