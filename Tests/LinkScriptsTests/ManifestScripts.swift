import Foundation
import LinkScripts
import SwitchyardTestSupport

/// A script of a shared manifest, with the test inputs of its action (none for a browser's or a preview's).
struct ManifestScript {
    let source: String
    let kind: ScriptKind
    let testInputs: [String]

    /// Every `script2` and legacy `script` of `file` in `../shared/data`: the actions' formats, the browsers, the
    /// previews, in file order.
    static func all(in file: String) throws -> [ManifestScript] {
        let data = try SharedData.data(file)
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [] }
        var scripts: [ManifestScript] = []
        func collect(_ object: [String: Any], inputs: [String] = []) {
            if let source = object["script2"] as? String {
                scripts.append(ManifestScript(source: source, kind: .script2, testInputs: inputs))
            }
            if let source = object["script"] as? String {
                scripts.append(ManifestScript(source: source, kind: .legacyScript, testInputs: inputs))
            }
        }
        for action in root["actions"] as? [[String: Any]] ?? [] {
            let inputs = action["testInputs"] as? [String] ?? []
            for format in action["formats"] as? [[String: Any]] ?? [] { collect(format, inputs: inputs) }
        }
        for browser in root["browsers"] as? [[String: Any]] ?? [] { collect(browser) }
        for preview in root["previews"] as? [[String: Any]] ?? [] { collect(preview) }
        return scripts
    }
}
