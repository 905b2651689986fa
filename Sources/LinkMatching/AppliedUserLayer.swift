import LinkRules
import LinkWrappers

/// A user layer applied over one compiled manifest: its own rules compiled by the manifest's compiler, each of its
/// references resolved to the manifest entries it names, and what it found wrong with them.
///
/// Made by ``RuleSet/applying(_:scriptChecker:)``; read by the matcher (`RuleSet.match`) for the parts decided per
/// link (sites, source apps, hide, prefer) and by tools (`lint`, `test`) for its diagnostics and its own rules.
/// A class so that a rule set can hold it (and the rule set it was applied over) without copying either.
public final class AppliedUserLayer: Sendable {
    /// The layer file as loaded (what a server applies again over an updated manifest).
    public let loaded: LoadedUserLayer
    /// The layer.
    public var layer: UserLayer { loaded.layer }
    /// The layer file, when known.
    public var file: String? { loaded.file }
    /// The layer's own apps, actions and redirect rules, compiled (openings tagged ``RuleLayer/user``, pointers into
    /// the layer file): what `switchyard test` runs the layer's tests on.
    public let rules: RuleSet
    /// Everything wrong with the layer, in file order: its load and compile diagnostics, and warnings for references
    /// the manifest no longer has (`W_VANISHED_REFERENCE`) and apps no rule has (`W_UNKNOWN_APP`).
    public let diagnostics: [Diagnostic]
    /// The rule set the layer was applied over, as loaded.
    public let base: RuleSet
    /// What the unconditional `disable` entries removed at load: manifest pointers by the layer pointer that named
    /// them.
    public let disabledAtLoad: [ResolvedReference]
    /// Each `when` entry's `disable` references, resolved to manifest pointers.
    let conditionalDisables: [[ResolvedReference]]

    init(_ loaded: LoadedUserLayer, over base: RuleSet, scriptChecker: (any ScriptChecking)?) {
        self.loaded = loaded
        self.base = base
        let manifest = base.manifest
        var warnings: [Diagnostic] = []
        // The layer's actions name the layer's apps or the manifest's: both are known to its compiler.
        var ownRules = loaded.rules
        let layerAppIds = Set(ownRules.manifest.apps.map(\.identifier))
        ownRules.manifest.apps += manifest.apps.filter { !layerAppIds.contains($0.identifier) }
        let knownApps = Set(ownRules.manifest.apps.map(\.identifier))
        for action in ownRules.manifest.actions {
            for format in action.formats where format.inlineApp == nil && !knownApps.contains(format.appId) {
                warnings.append(
                    loaded.diagnostic(
                        .warning,
                        "W_UNKNOWN_APP",
                        "appId \"\(format.appId)\" names no app in the layer's \"apps\" or in \(base.file ?? "the manifest"); this format is ignored",
                        at: format.pointer.appending("appId")
                    )
                )
            }
        }
        rules = RuleSet(ownRules, scriptChecker: scriptChecker, layer: .user)
        let index = ManifestIndex(manifest)
        func resolve(_ reference: RuleReference) -> [JSONPointer] {
            let found = index.rules(for: reference.target)
            if found.isEmpty {
                warnings.append(
                    loaded.diagnostic(
                        .warning,
                        "W_VANISHED_REFERENCE",
                        "\(base.file ?? "the manifest") has no \(reference); this entry does nothing (was it removed or renamed by an update?)",
                        at: reference.pointer
                    )
                )
            }
            return found
        }
        disabledAtLoad = loaded.layer.disable.map { ResolvedReference(reference: $0, rules: resolve($0)) }
        conditionalDisables = loaded.layer.when.map { condition in
            condition.disable.map { ResolvedReference(reference: $0, rules: resolve($0)) }
        }
        let appIds = knownApps.union(manifest.browsers.map(\.app.identifier))
        let appReferences = loaded.layer.prefer + loaded.layer.hide + loaded.layer.when.flatMap { $0.prefer + $0.hide }
        for reference in appReferences where !appIds.contains(reference.identifier) {
            warnings.append(
                loaded.diagnostic(
                    .warning,
                    "W_UNKNOWN_APP",
                    "no app or browser of \(base.file ?? "the manifest") or the layer is \"\(reference.identifier)\"; "
                        + (reference.identifier.contains(".")
                            ? "this entry only reaches an app a domain claims links for with this bundle ID or package"
                            : "this entry does nothing"),
                    at: reference.pointer
                )
            )
        }
        let wrappers = base.wrappers
        for reference in loaded.layer.disabledWrappers where wrappers.wrapper(id: reference.identifier) == nil {
            var message = "no built-in link wrapper is \"\(reference.identifier)\"; this entry does nothing"
            if let suggestion = KeySuggestion.closest(
                to: reference.identifier,
                among: Set(wrappers.wrappers.map(\.id))
            ) {
                message += "; did you mean \"\(suggestion)\"?"
            }
            warnings.append(loaded.diagnostic(.warning, "W_UNKNOWN_WRAPPER", message, at: reference.pointer))
        }
        userWrapperIDs = Set(loaded.layer.wrappers.map(\.id))
        diagnostics = Diagnostic.inFileOrder(loaded.diagnostics + rules.diagnostics + warnings)
    }

    /// The identifiers of the layer's own link wrappers (their steps are the user layer's).
    let userWrapperIDs: Set<String>

    /// The diagnostics that are errors (a front end refuses a layer that has any).
    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }

    /// Whether the cleaning stage must leave links to `host` as they are.
    public func skipsCleaning(host: String) -> Bool { layer.skipsCleaning(host: host) }

    /// Whether the manifest's actions and redirect rules leave links to `host` alone: the first such site.
    func excludingSite(for host: String) -> SiteRule? {
        layer.sites.first { $0.skipsManifest && $0.matches(host: host) }
    }

    /// The `when` entries that apply to a link to `host` from `sourceApp`, with their indexes.
    func conditions(sourceApp: String?, host: String) -> [(offset: Int, element: LayerCondition)] {
        layer.when.enumerated().filter { $0.element.applies(sourceApp: sourceApp, host: host) }
    }
}

/// A `disable` reference with the manifest rules it names.
public struct ResolvedReference: Sendable, Equatable {
    /// The reference, located in the layer.
    public var reference: RuleReference
    /// The pointers of the manifest's formats, browsers, previews and redirect rules it names (empty: none, and a
    /// `W_VANISHED_REFERENCE` warning says so).
    public var rules: [JSONPointer]
}

/// The manifest entries a reference can name, looked up by identifier, title, regex or pointer.
private struct ManifestIndex {
    let manifest: Manifest

    init(_ manifest: Manifest) {
        self.manifest = manifest
    }

    /// The pointers of the formats, browsers, previews and redirect rules `target` names (empty: none).
    func rules(for target: RuleReference.Target) -> [JSONPointer] {
        switch target {
        case .app(let identifier):
            return formats { $0.appId == identifier } + browsers(identifier)
        case .browser(let identifier):
            return browsers(identifier)
        case .action(let title, let appId):
            return manifest.actions.filter { $0.title == title }.flatMap { action in
                action.formats.filter { appId == nil || $0.appId == appId }.map(\.pointer)
            }
        case .redirect(let pattern):
            return manifest.redirects.filter { $0.pattern == pattern }.map(\.pointer)
        case .pointer(let pointer):
            if let action = manifest.actions.first(where: { $0.pointer == pointer }) {
                return action.formats.map(\.pointer)
            }
            if let app = manifest.apps.first(where: { $0.pointer == pointer }) {
                return rules(for: .app(app.identifier))
            }
            let all =
                manifest.actions.flatMap { $0.formats.map(\.pointer) } + manifest.browsers.map(\.pointer)
                + manifest.previews.map(\.pointer) + manifest.redirects.map(\.pointer)
            return all.contains(pointer) ? [pointer] : []
        }
    }

    private func formats(_ isIncluded: (Format) -> Bool) -> [JSONPointer] {
        manifest.actions.flatMap { $0.formats.filter(isIncluded).map(\.pointer) }
    }

    private func browsers(_ identifier: String) -> [JSONPointer] {
        manifest.browsers.filter { $0.app.identifier == identifier }.map(\.pointer)
    }
}
