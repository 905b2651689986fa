/// What the chooser may be asked for: app types in catalog order, each with its actions (and the parameters each
/// fills), its parameters and its apps. `GET /v1/app-types` answers it and `choose --list-actions` prints it, from this
/// one description.
public struct AppTypeList: Sendable, Equatable, Encodable {
    /// One app type, as callers of the chooser need it.
    public struct Entry: Sendable, Equatable, Encodable {
        /// The type's key (`twitter`).
        public var key: String
        /// Its name for people.
        public var name: String
        /// Its actions, in catalog order.
        public var actions: [Action]
        /// The parameters its actions take.
        public var parameters: [AppType.Parameter]
        /// Its apps (their keys are what `installed` lists).
        public var apps: [App]
    }

    /// One action, with the parameters its formats fill (at least one of them is needed).
    public struct Action: Sendable, Equatable, Encodable {
        /// The action's key (`show_profile`).
        public var key: String
        /// Its name for people.
        public var name: String?
        /// The parameters its apps' formats fill (``AppType/parameters(of:)``).
        public var parameters: [String]
    }

    /// One app of a type.
    public struct App: Sendable, Equatable, Encodable {
        /// The app's key.
        public var key: String
        /// Its name for people.
        public var name: String
        /// The scheme that opens it, as the catalog writes it.
        public var scheme: String
    }

    /// The types.
    public var types: [Entry]

    /// Every type of `catalog`.
    public init(_ catalog: AppCatalog) {
        self.init(types: catalog.types)
    }

    /// These types.
    public init(types: [AppType]) {
        self.types = types.map { type in
            Entry(
                key: type.key,
                name: type.name,
                actions: type.actions.map {
                    Action(key: $0.key, name: $0.name, parameters: type.parameters(of: $0.key))
                },
                parameters: type.parameters,
                apps: type.apps.map { App(key: $0.key, name: $0.name, scheme: $0.urlScheme) }
            )
        }
    }
}
