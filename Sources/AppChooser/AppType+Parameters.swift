import Foundation
import LinkRules

extension AppType {
    /// The parameters the apps' formats for `action` fill, in the type's order, then in the order the formats name
    /// them (`show_profile` of `twitter`: `profile_screenname`).
    public func parameters(of action: String) -> [String] {
        let used = apps.flatMap { app in
            app.actions.filter { $0.key == action }.flatMap { CatalogApp.placeholders(in: $0.urlFormat ?? "") }
        }
        let declared = parameters.map(\.key).filter(used.contains)
        return Self.unique(declared + used)
    }

    /// Every parameter the type takes: those it declares, then any a format names without declaring it.
    public var parameterKeys: [String] {
        Self.unique(
            parameters.map(\.key)
                + apps.flatMap { $0.actions.flatMap { CatalogApp.placeholders(in: $0.urlFormat ?? "") } }
        )
    }

    /// Checks the parameters given for `action`, as every front end does (`choose --param`, `/v1/choose`'s `param=`):
    /// a key the type does not take is ``ChooserError/Code/unknownParameter``, naming it and the known keys; an
    /// action whose formats fill parameters needs at least one of them with a value (else every app's URL would be
    /// its bare scheme or a link without its subject, `twitter://user`): ``ChooserError/Code/missingParameter``,
    /// naming them.
    public func checkParameters(_ given: [String: String], for action: String) throws(ChooserError) {
        let known = parameterKeys
        for key in given.keys.sorted() where !known.contains(key) {
            let suggestion = KeySuggestion.closest(to: key, among: Set(known)).map { "did you mean \"\($0)\"? " } ?? ""
            throw ChooserError(
                .unknownParameter,
                "app type \"\(self.key)\" has no parameter \"\(key)\" (\(suggestion)known: \(known.joined(separator: ", ")))"
            )
        }
        let needed = parameters(of: action)
        guard !needed.isEmpty, !needed.contains(where: { !(given[$0] ?? "").isEmpty }) else { return }
        let what =
            needed.count == 1 ? "the parameter \(needed[0])" : "one of the parameters \(needed.joined(separator: ", "))"
        throw ChooserError(.missingParameter, "action \"\(action)\" of app type \"\(self.key)\" needs \(what)")
    }

    static func unique(_ keys: [String]) -> [String] {
        var seen: Set<String> = []
        return keys.filter { seen.insert($0).inserted }
    }
}

extension CatalogApp {
    /// The keys a format's `{{placeholders}}` name, in order (`twitter://user?screen_name={{profile_screenname}}`:
    /// `profile_screenname`).
    static func placeholders(in template: String) -> [String] {
        var keys: [String] = []
        var rest = Substring(template)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            let key = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            if !key.isEmpty { keys.append(key) }
            rest = rest[close.upperBound...]
        }
        return keys
    }
}
