import Foundation
import Testing

/// Debian's chromium, for the tests that check the playground in a real headless browser. CI must have it
/// (`scripts/test` installs it); elsewhere those tests are skipped with ``skipReason``.
package enum Chromium {
    /// The browser's path, or nil when it is not installed.
    package static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Whether a browser test runs: chromium is installed, or this is CI (where its absence must fail the test).
    package static var isRequired: Bool { path != nil || SharedData.isCI }

    /// Why a browser test was skipped.
    package static let skipReason: Comment =
        "chromium is not installed (scripts/test installs it on CI); browser test skipped"
}
