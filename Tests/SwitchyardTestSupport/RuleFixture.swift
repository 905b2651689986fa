import Foundation
import LinkMatching
import LinkRules
import WebLinks

/// Small hand-written v5 rule sets for the resolver tests: a fixed set of apps plus the entries a test needs.
package enum RuleFixture {
    /// Four apps: `alpha` and `beta` on every device, `phoneonly` limited to phones, `padonly` to tablets.
    package static let apps = #"""
        [
          {"identifier": "alpha", "name": "Alpha", "scheme": "alpha", "storeId": 1},
          {"identifier": "beta", "name": "Beta", "scheme": "beta", "storeId": 2},
          {"identifier": "phoneonly", "name": "Phone Only", "scheme": "phoneonly", "platform": "phone"},
          {"identifier": "padonly", "name": "Pad Only", "scheme": "padonly", "platform": "pad"}
        ]
        """#

    /// The manifest text with the fixture apps and the given JSON fragments.
    package static func text(
        actions: String = "[]",
        browsers: String = "[]",
        previews: String = "[]",
        redirects: String = "{}"
    )
        -> String
    {
        #"{"apps": \#(apps), "actions": \#(actions), "browsers": \#(browsers), "previews": \#(previews), "redirects": \#(redirects)}"#
    }

    /// The compiled rule set; `scriptChecker` parses its scripts (LinkResolver's `JavaScriptChecker`; nil: kept
    /// unchecked, as the matcher's own tests need no JavaScript).
    package static func rules(
        actions: String = "[]",
        browsers: String = "[]",
        previews: String = "[]",
        redirects: String = "{}",
        scriptChecker: (any ScriptChecking)? = nil
    ) throws -> RuleSet {
        try RuleSet.load(
            text(actions: actions, browsers: browsers, previews: previews, redirects: redirects),
            file: "fixture.json",
            scriptChecker: scriptChecker
        )
    }

    /// A rule set with one action (`regex`) and one `alpha` format (`format`).
    package static func single(regex: String, format: String) throws -> RuleSet {
        let action: [String: Any] = ["regex": regex, "formats": [["appId": "alpha", "format": format]]]
        let data = try JSONSerialization.data(withJSONObject: [action])
        return try rules(actions: String(decoding: data, as: UTF8.self))
    }

    /// The real v5 manifest, compiled.
    package static func sharedRules(_ name: String) throws -> RuleSet {
        RuleSet(try ManifestLoader().load(Array(try SharedData.data(name)), file: name), scriptChecker: nil)
    }
}

extension RuleSet {
    /// The synchronous resolution of a link written as text (the normaliser must accept it).
    package func resolve(
        _ text: String,
        options: MatchOptions = MatchOptions(),
        trace: Bool = false
    ) throws -> Resolution {
        resolve(try Link(text), options: options, trace: trace)
    }

    /// The openings of a link written as text, as it is (no redirect rules).
    package func openings(for text: String, options: MatchOptions = MatchOptions()) throws -> [Opening] {
        openings(for: try Link(text), options: options)
    }

    /// The redirect rules applied to a link written as text.
    package func unwrap(_ text: String) throws -> (link: String, steps: [UnwrapStep]) {
        let unwrapped = unwrap(try Link(text))
        return (unwrapped.link.text, unwrapped.steps)
    }
}

extension Link {
    /// A link a test writes by hand; a text the parser refuses is a mistake in the test, which stops it.
    package init(test text: String) {
        do {
            self = try Link(text)
        } catch {
            preconditionFailure("the test link \(text) does not parse: \(error)")
        }
    }
}

extension RuleSet {
    /// These rules with a user layer written as text over them (applied as it is: its errors are in
    /// `userLayer.diagnostics`, not refused).
    package func applying(layer text: String, file: String = "user-layer.json") throws -> RuleSet {
        applying(try UserLayerLoader().load(text, file: file), scriptChecker: nil)
    }
}
