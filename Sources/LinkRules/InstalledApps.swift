/// The apps installed on a device, by URL scheme: openings in other apps are not listed (as Opener does).
///
/// The one parser of an installed-apps list for every front end: the CLI's `--installed a,b`, the HTTP API's
/// `installed=a,b` and batch `"installed": ["a", "b"]`, and the app chooser.
public struct InstalledApps: Sendable, Hashable {
    /// The schemes, lower-cased, without `:` or `://`.
    public private(set) var schemes: Set<String>

    /// The apps with these schemes (or app keys, for the app chooser); each name is trimmed, lower-cased and loses
    /// a trailing `:` or `://`, and empty names are dropped.
    public init(_ names: some Sequence<some StringProtocol>) {
        // A loop, not `compactMap(Self.scheme(from:))`: that function value captures the element's metatype, which
        // Swift 6.2 warns is not Sendable (SendableMetatypes), once per module that specialises it.
        var schemes: Set<String> = []
        for name in names {
            if let scheme = Self.scheme(from: name) { schemes.insert(scheme) }
        }
        self.schemes = schemes
    }

    /// Parses a comma-separated list (`"twitter, tweetbot,"`).
    public init(list: String) {
        self.init(list.split(separator: ",", omittingEmptySubsequences: false))
    }

    /// Whether an app with this scheme (any case) is installed.
    public func contains(scheme: String) -> Bool {
        schemes.contains(Self.scheme(from: scheme) ?? "")
    }

    /// The canonical form of one name, or nil when it is empty.
    static func scheme(from name: some StringProtocol) -> String? {
        var scheme = name.trimmingASCIIWhitespace().lowercased()
        if scheme.hasSuffix("://") {
            scheme.removeLast(3)
        } else if scheme.hasSuffix(":") {
            scheme.removeLast()
        }
        return scheme.isEmpty ? nil : scheme
    }
}

extension Platform {
    /// Parses a platform name as every front end takes it (`phone` or `pad`, any case).
    public init(parsing text: some StringProtocol) throws(PlatformError) {
        guard let platform = Platform(rawValue: text.trimmingASCIIWhitespace().lowercased()) else {
            throw PlatformError(value: String(text))
        }
        self = platform
    }
}

/// A platform name that is neither `phone` nor `pad`.
public struct PlatformError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The value as given.
    public var value: String

    /// `platform must be "phone" or "pad", not "…"`.
    public var description: String {
        "platform must be \(Platform.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")), not \"\(value)\""
    }
}

extension StringProtocol {
    /// The text without leading and trailing ASCII spaces and tabs.
    func trimmingASCIIWhitespace() -> SubSequence {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        let start = firstIndex { !isSpace($0) } ?? endIndex
        let end = lastIndex { !isSpace($0) }.map { index(after: $0) } ?? start
        return self[start..<Swift.max(start, end)]
    }
}
