import Foundation
import LinkRules

/// A manifest compiled once into an immutable, `Sendable` rule set: every regex compiled, every template checked.
///
/// Compiling never fails as a whole: an action whose regex ICU rejects, or a format whose template names a group the
/// regex lacks, is left out and reported in ``diagnostics``, so one bad rule never takes the others down.
public struct RuleSet: Sendable {
    /// The manifest, as loaded.
    public let manifest: Manifest
    /// The file it came from, when known.
    public let file: String?
    /// Load and compile diagnostics, in file order.
    public let diagnostics: [Diagnostic]
    let actions: [CompiledAction]
    let browsers: [CompiledBrowser]
    let previews: [CompiledPreview]
    let redirects: [CompiledRedirect]

    /// Compiles a loaded manifest.
    public init(_ loaded: LoadedManifest) {
        var compiler = RuleCompiler(loaded: loaded)
        let manifest = loaded.manifest
        let appsById = Dictionary(manifest.apps.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        actions = manifest.actions.enumerated().compactMap { compiler.compile($0.element, appsById: appsById) }
        browsers = manifest.browsers.compactMap { compiler.compile($0) }
        previews = manifest.previews.compactMap { compiler.compile($0) }
        redirects = manifest.redirects.compactMap { compiler.compile($0) }
        self.manifest = manifest
        self.file = loaded.file
        // File order: a maintainer reads them top to bottom next to the file.
        diagnostics = (loaded.diagnostics + compiler.diagnostics).enumerated().sorted { lhs, rhs in
            let left = lhs.element.position?.offset ?? Int.max, right = rhs.element.position?.offset ?? Int.max
            return left == right ? lhs.offset < rhs.offset : left < right
        }.map(\.element)
    }

    /// Loads and compiles a manifest file.
    public static func load(contentsOf url: URL, limits: ManifestLimits = ManifestLimits()) throws(ManifestError) -> RuleSet {
        RuleSet(try ManifestLoader(limits: limits).load(contentsOf: url))
    }

    /// Loads and compiles a manifest from its text.
    public static func load(_ text: String, file: String? = nil) throws(ManifestError) -> RuleSet {
        RuleSet(try ManifestLoader().load(text, file: file))
    }

    /// The diagnostics that are errors.
    public var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
}

struct CompiledAction: Sendable {
    let action: Action
    let regex: CompiledRegex
    let formats: [CompiledFormat]
}

struct CompiledFormat: Sendable {
    let format: Format
    let app: App
    let output: Output
}

struct CompiledBrowser: Sendable {
    let browser: Browser
    let regex: CompiledRegex
    let output: Output
}

struct CompiledPreview: Sendable {
    let preview: Preview
    let regex: CompiledRegex
    let output: Output
}

struct CompiledRedirect: Sendable {
    let rule: RedirectRule
    let regex: CompiledRegex
}
