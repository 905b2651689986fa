import Foundation

/// A kind of app (Twitter client, browser …): its parameters, its app-agnostic actions, and the apps that can do
/// them.
public struct AppType: Sendable, Equatable, Codable {
    /// A parameter callers pass (`profile_screenname`).
    public struct Parameter: Sendable, Equatable, Codable {
        /// The key callers pass and URL formats name in `{{…}}` (`profile_screenname`).
        public var key: String
        /// A name for people (`Account name`).
        public var name: String?
        /// What the parameter holds, for people.
        public var description: String?

        /// Creates a parameter.
        public init(key: String, name: String? = nil, description: String? = nil) {
            self.key = key
            self.name = name
            self.description = description
        }
    }

    /// An app-agnostic action (`show_profile`).
    public struct Action: Sendable, Equatable, Codable {
        /// The key callers ask for and apps' formats are listed under (`show_profile`).
        public var key: String
        /// A name for people (`Show an account`).
        public var name: String?

        /// Creates an action.
        public init(key: String, name: String? = nil) {
            self.key = key
            self.name = name
        }
    }

    /// The type's key (`twitter`); looked up without regard to case.
    public var key: String
    /// A name for people (`Twitter`); the key when the data gives none.
    public var name: String
    /// The parameters the type's actions take.
    public var parameters: [Parameter]
    /// The app-agnostic actions, in catalog order.
    public var actions: [Action]
    /// The apps that can perform the actions, in catalog order (the picker's order).
    public var apps: [CatalogApp]

    private enum CodingKeys: String, CodingKey { case key, name, parameters, actions, apps }

    /// Creates an app type.
    public init(
        key: String,
        name: String,
        parameters: [Parameter] = [],
        actions: [Action] = [],
        apps: [CatalogApp] = []
    ) {
        self.key = key
        self.name = name
        self.parameters = parameters
        self.actions = actions
        self.apps = apps
    }

    /// Decodes Choosy's JSON: only `key` is required; a missing `name` is the key, missing lists are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = try container.decode(String.self, forKey: .key)
        name = try container.decodeIfPresent(String.self, forKey: .name) ?? key
        parameters = try container.decodeIfPresent([Parameter].self, forKey: .parameters) ?? []
        actions = try container.decodeIfPresent([Action].self, forKey: .actions) ?? []
        apps = try container.decodeIfPresent([CatalogApp].self, forKey: .apps) ?? []
    }

    /// The app with this key.
    public func app(_ key: String) -> CatalogApp? {
        apps.first { $0.key.caseInsensitiveCompare(key) == .orderedSame }
    }

    /// `other` merged over this type (other wins per key).
    func merging(_ other: AppType) -> AppType {
        AppType(
            key: key,
            name: other.name,
            parameters: Self.merge(parameters, other.parameters, key: \.key),
            actions: Self.merge(actions, other.actions, key: \.key),
            apps: Self.merge(apps, other.apps, key: \.key) { $0.merging($1) }
        )
    }

    static func merge<T>(_ base: [T], _ over: [T], key: KeyPath<T, String>, combine: (T, T) -> T = { $1 }) -> [T] {
        var result = base
        for item in over {
            if let index = result.firstIndex(where: { $0[keyPath: key] == item[keyPath: key] }) {
                result[index] = combine(result[index], item)
            } else {
                result.append(item)
            }
        }
        return result
    }
}

/// One app of a type: its URL scheme and, per action, a URL format with `{{parameter}}` placeholders.
public struct CatalogApp: Sendable, Equatable, Codable {
    /// How one action becomes this app's URL.
    public struct ActionFormat: Sendable, Equatable, Codable {
        /// The action's key.
        public var key: String
        /// The URL with `{{parameter}}` placeholders (`url_format` in the JSON); nil or empty: the bare scheme.
        public var urlFormat: String?

        /// Creates an action format.
        public init(key: String, urlFormat: String?) {
            self.key = key
            self.urlFormat = urlFormat
        }

        private enum CodingKeys: String, CodingKey {
            case key
            case urlFormat = "url_format"
        }
    }

    /// The app's key within its type (`tweetbot`).
    public var key: String
    /// A name for people (`Tweetbot`); the key when the data gives none.
    public var name: String
    /// The scheme that opens the app (`tweetbot:`), also its installed-check.
    public var urlScheme: String
    /// How each action the app supports becomes its URL.
    public var actions: [ActionFormat]

    private enum CodingKeys: String, CodingKey {
        case key, name, actions
        case urlScheme = "app_url_scheme"
    }

    /// Creates an app.
    public init(key: String, name: String, urlScheme: String, actions: [ActionFormat] = []) {
        self.key = key
        self.name = name
        self.urlScheme = urlScheme
        self.actions = actions
    }

    /// Decodes Choosy's JSON: `key` and `app_url_scheme` are required; a missing `name` is the key.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        key = try container.decode(String.self, forKey: .key)
        name = try container.decodeIfPresent(String.self, forKey: .name) ?? key
        urlScheme = try container.decode(String.self, forKey: .urlScheme)
        actions = try container.decodeIfPresent([ActionFormat].self, forKey: .actions) ?? []
    }

    /// The scheme without `:` or `://`, lower-cased (what installed-app checks compare).
    public var scheme: String {
        var text = urlScheme.lowercased()
        if text.hasSuffix("://") { text.removeLast(3) } else if text.hasSuffix(":") { text.removeLast() }
        return text
    }

    func merging(_ other: CatalogApp) -> CatalogApp {
        CatalogApp(
            key: key,
            name: other.name,
            urlScheme: other.urlScheme,
            actions: AppType.merge(actions, other.actions, key: \.key)
        )
    }
}
