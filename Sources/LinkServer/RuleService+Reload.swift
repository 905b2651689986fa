import Foundation
import LinkFetching
import LinkMatching
import LinkResolver
import LinkRules
import Logging

/// The reloads of ``RuleService``: on its triggers, and at once from the HTTP API's tests and operators.
extension RuleService {
    /// Reloads the rules now: the manifest, then the user layer file. A manifest that fails to load or to pass its
    /// own deterministic tests is refused and the current rules keep serving; a user layer with errors is refused
    /// and the previous layer keeps serving.
    @discardableResult
    package func reload(reason: String) async -> Bool {
        let manifestAccepted = await reloadManifest(reason: reason)
        guard userLayer != nil else { return manifestAccepted }
        return reloadUserLayer(reason: reason) && manifestAccepted
    }

    /// Reloads the manifest, keeping the serving user layer over it (the layer survives manifest updates). With
    /// `unlessUnchanged` (the timer's reloads), a manifest with the serving one's bytes makes no new generation: only
    /// its file's signature is recorded (a file touched, or one whose signature was taken while it was being written).
    @discardableResult
    func reloadManifest(reason: String, unlessUnchanged: Bool = false) async -> Bool {
        let signature = Self.signature(of: manifest)
        do {
            let loaded = try await loader.load(manifest)
            if unlessUnchanged, RuleSetStore.identity(of: loaded) == store.current.manifestIdentity {
                store.recordFileSignature(signature)
                return true
            }
            var rules = loaded.rules
            if let layer = store.rules.userLayer {
                rules = try loader.apply(layer.loaded, over: rules, source: layer.file ?? "user layer")
                logUserLayer(rules.userLayer)
            }
            store.replace(
                with: rules,
                identity: RuleSetStore.identity(of: loaded),
                fileSignature: signature
            )
            metrics.recordReload(.accepted)
            metrics.recordGeneration(store.generation)
            logger.info("rules reloaded", metadata: ["reason": "\(reason)", "generation": "\(store.generation)"])
            return true
        } catch {
            store.recordRejection(error.description, fileSignature: signature)
            metrics.recordReload(.rejected)
            logger.error(
                "reload refused; the previous rules keep serving",
                metadata: ["reason": "\(reason)", "error": "\(error.description)"]
            )
            return false
        }
    }

    /// Reads the user layer file again and applies it over the serving manifest; a layer with errors is refused
    /// (each located error logged) and the previous one keeps serving.
    @discardableResult
    func reloadUserLayer(reason: String) -> Bool {
        guard let path = userLayer else { return false }
        let signature = FileSignature.of(path)
        do {
            let rules = try loader.apply(userLayer: path, over: store.rules.withoutUserLayer)
            store.replace(with: rules, userLayerSignature: signature)
            metrics.recordReload(.accepted)
            metrics.recordGeneration(store.generation)
            logger.info("user layer reloaded", metadata: ["reason": "\(reason)", "generation": "\(store.generation)"])
            logUserLayer(rules.userLayer)
            return true
        } catch {
            store.recordUserLayerRejection(error.description, signature: signature)
            metrics.recordReload(.rejected)
            logger.error(
                "user layer refused; the previous one keeps serving",
                metadata: [
                    "reason": "\(reason)", "error": "\(error.description)",
                    "diagnostics": "\(error.diagnostics.map(\.description).joined(separator: "\n"))",
                ]
            )
            return false
        }
    }

    /// Logs the layer's warnings (a reference the manifest no longer has, an unknown key).
    func logUserLayer(_ layer: AppliedUserLayer?) {
        for diagnostic in layer?.diagnostics ?? [] {
            logger.warning("user layer: \(diagnostic.description)")
        }
    }

    /// Reloads if the manifest or the user layer changed: a file whose size or modification time differs from the
    /// serving rules', or a URL whose conditional GET brings a new copy.
    func reloadIfChanged() async {
        await reloadManifestIfChanged()
        if let path = userLayer, FileSignature.of(path) != store.userLayerSignature {
            reloadUserLayer(reason: "user layer changed")
        }
    }

    private func reloadManifestIfChanged() async {
        switch manifest {
        case .file:
            if Self.signature(of: manifest) != store.fileSignature {
                await reloadManifest(reason: "file changed", unlessUnchanged: true)
            }
        case .url(let url):
            guard let downloader = loader.downloader,
                let download = try? await downloader.load(
                    url: url,
                    validate: { data in _ = try ManifestLoader().load(Array(data), file: url) }
                ),
                download.source == .network
            else { return }
            await reloadManifest(reason: "manifest URL changed")
        case .bundled:
            return
        }
    }

    static func signature(of source: ManifestSource) -> FileSignature? {
        if case .file(let path) = source { return FileSignature.of(path) }
        return nil
    }
}
