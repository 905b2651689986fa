import Foundation
import LinkMatching
import LinkResolver
import LinkRules

/// A small, clean v5 manifest written for these tests (one line per element, so that seeded defects have a line to
/// be reported on), and helpers to seed defects into copies of it.
enum ToolingFixture {
    static let manifest = """
        {
            "apps": [
                {
                    "identifier": "pebble",
                    "name": "Pebble",
                    "scheme": "pebble",
                    "storeId": 100000001,
                    "new": true
                },
                {
                    "identifier": "quill",
                    "name": "Quill",
                    "scheme": "quill",
                    "storeId": 100000002,
                    "docs": "https://quill.invalid/docs"
                }
            ],
            "actions": [
                {
                    "title": "Open Post",
                    "regex": "https?://(www\\\\.)?pebble\\\\.example/post/(\\\\d+)",
                    "testInputs": [
                        "https://pebble.example/post/42",
                        "https://www.pebble.example/post/7?ref=home"
                    ],
                    "formats": [
                        {
                            "appId": "pebble",
                            "format": "pebble://post/$2",
                            "testResults": [
                                "pebble://post/42",
                                "pebble://post/7?ref=home"
                            ]
                        }
                    ]
                },
                {
                    "title": "Open Note",
                    "regex": "https?://quill\\\\.example/n/([a-z]+)",
                    "testInputs": [
                        "https://quill.example/n/abc"
                    ],
                    "formats": [
                        {
                            "appId": "quill",
                            "script2": "function process(url, completionHandler) {\\n    // The note id is the last path segment.\\n    var id = url.match(/\\\\/n\\\\/([a-z]+)/)[1];\\n    completionHandler('quill://note?id=' + id);\\n}",
                            "testResults": [
                                "quill://note?id=abc"
                            ]
                        }
                    ]
                }
            ],
            "browsers": [
                {
                    "identifier": "lantern",
                    "name": "Lantern",
                    "scheme": "lantern",
                    "storeId": 100000003,
                    "regex": "(https?://.+)",
                    "format": "lantern://open?url=$1",
                    "testInputs": [
                        "https://example.org/a"
                    ],
                    "testResults": [
                        "lantern://open?url=https://example.org/a"
                    ]
                }
            ],
            "previews": [
                {
                    "regex": "https?://pebble\\\\.example/post/(\\\\d+)",
                    "format": "https://img.pebble.example/$1.jpg"
                }
            ],
            "redirects": {
                "https?://out\\\\.example/\\\\?u=": {
                    "param": "u",
                    "tests": {
                        "https://out.example/?u=https%3A%2F%2Fpebble.example%2Fpost%2F9": "https://pebble.example/post/9"
                    }
                },
                "https?://go\\\\.example/(.+)": {
                    "format": "https://pebble.example/post/$1",
                    "tests": {
                        "https://go.example/12": "https://pebble.example/post/12"
                    }
                }
            }
        }
        """

    /// The fixture with `old` replaced by `new` (exactly once; a fixture edit that no longer applies fails loudly).
    static func seeded(_ old: String, _ new: String) throws -> String {
        let parts = manifest.components(separatedBy: old)
        guard parts.count == 2 else {
            throw FixtureError(description: "\"\(old)\" occurs \(parts.count - 1) times in the fixture")
        }
        return parts.joined(separator: new)
    }

    /// The 1-based line of the first occurrence of `marker` in `text`.
    static func line(of marker: String, in text: String) -> Int? {
        guard let range = text.range(of: marker) else { return nil }
        return text[..<range.lowerBound].count { $0 == "\n" } + 1
    }

    static func loaded(_ text: String = manifest) throws -> LoadedManifest {
        try ManifestLoader().load(text, file: "fixture.json")
    }
}

struct FixtureError: Error, CustomStringConvertible {
    var description: String
}
