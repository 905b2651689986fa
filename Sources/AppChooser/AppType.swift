import Foundation

/// A kind of app (Twitter client, browser …): its parameters, its app-agnostic actions, and the apps that can do
/// them.
public struct AppType: Sendable, Equatable, Codable {
    /// A parameter callers pass (`profile_screenname`).
    public struct Parameter: Sendable, Equatable, Codable {
        public var key: String
        public var name: String?
        public var description: String?

        public init(key: String, name: String? = nil, description: String? = nil) {
            self.key = key
            self.name = name
            self.description = description
        }
    }

    /// An app-agnostic action (`show_profile`).
    public struct Action: Sendable, Equatable, Codable {
        public var key: String
        public var name: String?

        public init(key: String, name: String? = nil) {
            self.key = key
            self.name = name
        }
    }

    public var key: String
    public var name: String
    public var parameters: [Parameter]
    public var actions: [Action]
    public var apps: [CatalogApp]

    private enum CodingKeys: String, CodingKey { case key, name, parameters, actions, apps }

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
        public var key: String
        public var urlFormat: String?

        public init(key: String, urlFormat: String?) {
            self.key = key
            self.urlFormat = urlFormat
        }

        private enum CodingKeys: String, CodingKey {
            case key
            case urlFormat = "url_format"
        }
    }

    public var key: String
    public var name: String
    /// The scheme that opens the app (`tweetbot:`), also its installed-check.
    public var urlScheme: String
    public var actions: [ActionFormat]

    private enum CodingKeys: String, CodingKey {
        case key, name, actions
        case urlScheme = "app_url_scheme"
    }

    public init(key: String, name: String, urlScheme: String, actions: [ActionFormat] = []) {
        self.key = key
        self.name = name
        self.urlScheme = urlScheme
        self.actions = actions
    }

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
