import Foundation

// Compiled into LinkResolver only by `scripts/fuzz`, which builds the module with swiftc rather than SwiftPM.
// SwiftPM generates `Bundle.module` for a target with resources; this stands in for it, pointing at the
// resource folder in the source tree so that `RuleSet.bundled()` still finds its rules.
extension Foundation.Bundle {
    /// The LinkResolver resources, read from `Sources/LinkResolver/Resources` next to this file.
    static let module: Bundle = {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/LinkResolver/Resources")
        return Bundle(path: sources.path) ?? .main
    }()
}
