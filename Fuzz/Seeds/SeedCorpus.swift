import Foundation

/// Writes the fuzz targets' seed corpora from the reference data, read at run time and never copied into the
/// repository: the Opener manifests' test inputs, formats and redirect tests, and the hostile-input catalogue.
///
/// `seed-corpus DATA_DIR OUT_DIR` writes `OUT_DIR/<target>/<hash>` files (one input each, named by content so
/// that reruns do not duplicate). A few hand-written seeds per target are written even without the data, so
/// the fuzzers always start from valid shapes. Exit status 0; problems with one data file are reported and the
/// others still used.
@main
struct SeedCorpus {
    /// The byte between fields of multi-field inputs (as `FuzzInput.separator`).
    static let separator = "\u{0}"

    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count == 3 else {
            FileHandle.standardError.write(Data("usage: seed-corpus DATA_DIR OUT_DIR\n".utf8))
            exit(2)
        }
        var seeds = SeedSet()
        seeds.addBuiltIn()
        let data = URL(fileURLWithPath: arguments[1])
        if FileManager.default.fileExists(atPath: data.path) {
            for name in ["openerManifest-v5.json", "openerManifest-v2.json"] {
                if let manifest = load(data.appendingPathComponent(name)) as? [String: Any] {
                    seeds.add(manifest: manifest)
                }
            }
            if let catalogue = load(data.appendingPathComponent("bad-inputs.json")) as? [String: Any] {
                seeds.add(badInputs: catalogue)
            }
        } else {
            print("seed-corpus: \(data.path) is absent: only the built-in seeds are written")
        }
        let output = URL(fileURLWithPath: arguments[2])
        for (target, inputs) in seeds.inputs.sorted(by: { $0.key < $1.key }) {
            let folder = output.appendingPathComponent(target)
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for input in inputs {
                    try input.write(to: folder.appendingPathComponent(name(for: input)))
                }
            } catch {
                FileHandle.standardError.write(Data("seed-corpus: cannot write \(folder.path): \(error)\n".utf8))
                exit(1)
            }
            print("seed-corpus: \(target): \(inputs.count) seeds")
        }
    }

    /// The parsed JSON file, or nil (reported) when it cannot be read.
    static func load(_ url: URL) -> Any? {
        do {
            return try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        } catch {
            FileHandle.standardError.write(Data("seed-corpus: skipping \(url.lastPathComponent): \(error)\n".utf8))
            return nil
        }
    }

    /// A stable file name from the content (FNV-1a, 64 bits).
    static func name(for input: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in input {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "seed-" + String(hash, radix: 16)
    }
}

/// The seeds per target, deduplicated.
struct SeedSet {
    private(set) var inputs: [String: Set<Data>] = [:]

    /// The most test inputs taken from one rule for the deep-link target (links repeat their shapes a lot).
    private let deeplinkInputsPerRule = 2

    mutating func add(_ target: String, _ text: String) {
        inputs[target, default: []].insert(Data(text.utf8))
    }

    mutating func add(_ target: String, data: Data) {
        inputs[target, default: []].insert(data)
    }

    /// Hand-written shapes, so that every target starts from valid inputs even without the reference data.
    mutating func addBuiltIn() {
        let separator = SeedCorpus.separator
        add(
            "manifest",
            #"{"apps": [{"identifier": "a", "name": "A", "scheme": "a"}], "actions": [{"regex": "https?://a\\.example/(\\d+)", "formats": [{"appId": "a", "format": "a://item/$1"}]}], "browsers": [], "redirects": {}}"#
        )
        // Wrapped links of each decoding, refresh contents and pages (the wrappers target reads its input as all
        // three).
        for wrapped in [
            "https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Fexample.com%2Fa%3Fb%3D1&data=x",
            "https://urldefense.com/v3/__https://example.com/a*b?x=1**Ay__;I0BA!!X!Y$",
            "https://urldefense.proofpoint.com/v2/url?u=https-3A__example.com_a-3Fb-3D1&d=x&e=",
            "https://secure-web.cisco.com/1Ab/https%3A%2F%2Fexample.com%2Fa",
            "https://eu-west-1.protection.sophos.com/?u=aHR0cHM6Ly9leGFtcGxlLmNvbS8/YT0xJmI9fnh+&d=x",
            "https://www.google.co.uk/url?sa=t&q=&url=https%3A%2F%2Fexample.com%2F", "*b?x=1**Ay__;I0BA!!X!Y$",
            "0; URL='https://b.example/next?a=1'", "5", ".5,/x", "0 ; url = \"a b\"",
            #"<meta http-equiv="Refresh" content="0;url=/x&amp;y"><script><!--<script></script>--></script>"#,
        ] {
            add("wrappers", wrapped)
        }
        add("link-input", "https://Example.COM./path?q=1#f")
        add("link-input", "http://user@xn--bcher-kva.example:8080/a")
        add(
            "template",
            ["https?://a\\.example/(\\d+)", "a://item/$1", "https://a.example/42", ""].joined(separator: separator)
        )
        add("template", ["http(s?.*)$", "b$1", "https://a.example/x", "\u{1}"].joined(separator: separator))
        add(
            "xcallback",
            "app://x-callback-url/open?x-source=Me&x-success=me%3A%2F%2Fdone&x-error=me%3A%2F%2Ferr&x-cancel=me%3A%2F%2Fcancel&id=1&flag"
        )
        add("xcallback", "app://X-Callback-URL/a/b?x-success=https%3A%2F%2Fexample.com%2Fcb%3Fa%3D1&q=caf%C3%A9")
        for link in [
            "https://example.com/test/123/abc", "https://example.com/artist/metallica/42",
            "https://example.com/event/E621E1F8-C36C-495A-93FC-0C247A3E6E5F/buy/true",
            "https://example.com/items/1,2,3",
            "https://example.com/files/a/b/c.txt", "https://example.com/files/a/b/raw",
            "https://example.com/search?page=2&q=abc",
            "https://example.com/doc/7#part", "https://example.com/a/12.abc", "myapp://item/5",
            "https://example.com/user/jo", "https://example.com/pair?key=value",
            "https://example.com/pairs?a=1&b=2#top", "https://example.com/pairs?b=9&a=1&c=3#x",
            "https://example.com/ids/1;2;3",
        ] {
            add("deeplink", link)
        }
        add("deeplink", "https://example.com/x/1/y?flag=true#top" + separator + "/x/{i}/y?flag={b}#{f}")
        add("deeplink", "app://item/a,b/rest/of/it" + separator + "/item/{l}/{r}")
        add("deeplink", "ftp://example.com/x?a=1&k=v#f" + separator + "/x?a={s}&{t}={q}#{f}")
        add("deeplink", "myapp://x/1;2?=v" + separator + "/x/{m}?{q}={s}")
        let statements =
            #"[{"relation":["delegate_permission/common.handle_all_urls"],"target":{"namespace":"android_app","package_name":"com.example","sha256_cert_fingerprints":["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]},"relation_extensions":{"delegate_permission/common.handle_all_urls":{"dynamic_app_link_components":[{"/":"/x/*","exclude":true},{"?":{"a":"?*"}}]}}},{"include":"https://example.com/more.json"}]"#
        for (file, link) in [
            (
                ##"{"applinks":{"defaults":{"caseSensitive":false},"substitutionVariables":{"food":["pizza","ta*s"]},"details":[{"appIDs":["A.b","C.d"],"components":[{"#":"no","exclude":true},{"/":"/$(lang)_$(region)/$(food)/*","?":{"q":"?*"}},{"/":"/buy/*"}]}]}}"##,
                "https://example.com/en_US/tacos/1?q=x"
            ),
            (#"{"applinks":{"apps":[],"details":{"A.b":{"paths":["NOT /x/*","*"]}}}}"#, "https://example.com/x/1"),
            (#"{"applinks":{"details":[{"appID":"A.b","paths":["/a*b*c"]}]}}"#, "https://example.com/aXbYc#f"),
        ] {
            add("claims", file + separator + link + separator + statements)
        }
        for (device, link) in [
            (
                #"{"platform":"android","sdk":35,"defaultBrowser":"b","apps":[{"package":"com.example","isBrowser":false,"fingerprints":["14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"],"filters":[{"actions":["VIEW"],"categories":["BROWSABLE","DEFAULT"],"schemes":["https","app"],"hosts":["example.com","*.example.com"],"pathPatterns":[".*/x"],"pathAdvancedPatterns":["/[a-z]+{1,3}"]}]},{"package":"c","isBrowser":false,"linkHandlingAllowed":false,"userSelected":["*.example.com"],"firstInstallOrder":2,"filters":[{"actions":["android.intent.action.VIEW"],"categories":["BROWSABLE","DEFAULT"],"schemes":["http"],"hosts":["example.com","localhost"]}],"verified":["example.com"]},{"package":"b"}]}"#,
                "https://example.com/x/x?q=1"
            ),
            (
                #"{"platform":"ios","apps":[{"appId":"A.b","schemes":["app"]},{"appID":"C.d"}],"aasa":{"applinks":{"details":[{"appIDs":["A.b","C.d"],"components":[{"/":"/x/*"}]}]}},"domain":"example.com","tappedIn":{"kind":"safari","domain":"other.example"},"openInSafari":["b.example"]}"#,
                "https://example.com/x/1"
            ),
            (#"{"platform":"ios","aasa":"{\"applinks\":{}}","tappedIn":{"kind":"addressBar"}}"#, "app://x"),
        ] {
            add("device", device + separator + link + separator + statements)
        }
    }

    /// The manifest's entries as small manifests, and their test inputs, formats and redirect tests.
    mutating func add(manifest: [String: Any]) {
        let apps = manifest["apps"] as? [[String: Any]] ?? []
        let appsById = Dictionary(
            apps.compactMap { app in (app["identifier"] as? String).map { ($0, app) } },
            uniquingKeysWith: { first, _ in first }
        )
        for action in manifest["actions"] as? [[String: Any]] ?? [] {
            let formats = action["formats"] as? [[String: Any]] ?? []
            let used = formats.compactMap { ($0["appId"] ?? $0["appIdentifier"]) as? String }.compactMap {
                appsById[$0]
            }
            addManifest(["apps": used, "actions": [action]])
            addRule(regex: action["regex"], templates: formats.map { $0["format"] }, inputs: action["testInputs"])
            for format in formats {
                for case let result as String in format["testResults"] as? [Any] ?? []
                where result.contains("x-callback-url") {
                    add("xcallback", result)
                }
            }
        }
        for browser in manifest["browsers"] as? [[String: Any]] ?? [] {
            addManifest(["browsers": [browser]])
            addRule(regex: browser["regex"], templates: [browser["format"]], inputs: browser["testInputs"])
        }
        for preview in manifest["previews"] as? [[String: Any]] ?? [] {
            addManifest(["apps": [], "previews": [preview]])
            addRule(regex: preview["regex"], templates: [preview["format"]], inputs: preview["testInputs"])
        }
        for key in ["redirects", "redirectRules"] {
            for (pattern, value) in manifest[key] as? [String: Any] ?? [:] {
                guard let rule = value as? [String: Any] else { continue }
                addManifest(["apps": [], key: [pattern: rule]])
                let tests = rule["tests"] as? [String: Any] ?? [:]
                for (input, expected) in tests {
                    add("link-input", input)
                    add("wrappers", input)
                    if let expected = expected as? String { add("link-input", expected) }
                    let template = rule["format"] as? String ?? "$0"
                    add("template", [pattern, template, input, "\u{1}"].joined(separator: SeedCorpus.separator))
                }
            }
        }
    }

    /// One seed per template and test input (the first two inputs), and the inputs for the link targets.
    private mutating func addRule(regex: Any?, templates: [Any?], inputs: Any?) {
        let links = (inputs as? [Any] ?? []).compactMap { $0 as? String }
        for link in links {
            add("link-input", link)
            add("wrappers", link)
        }
        for link in links.prefix(deeplinkInputsPerRule) {
            add("deeplink", link)
        }
        guard let regex = regex as? String else { return }
        for case let template as String in templates {
            for link in links.prefix(2) {
                add("template", [regex, template, link, ""].joined(separator: SeedCorpus.separator))
            }
        }
    }

    private mutating func addManifest(_ object: [String: Any]) {
        guard JSONSerialization.isValidJSONObject(object),
            let data = try? JSONSerialization.data(
                withJSONObject: object,
                options: [.sortedKeys, .withoutEscapingSlashes]
            )
        else { return }
        add("manifest", data: data)
    }

    /// The hostile-input catalogue: manifests (as objects, raw text or base64) for the loader, link-shaped
    /// inputs for the link, x-callback and deep-link targets, regex/link pairs for the renderer.
    mutating func add(badInputs catalogue: [String: Any]) {
        if let base = catalogue["base_manifest"] as? [String: Any] { addManifest(base) }
        for entry in catalogue["cases"] as? [[String: Any]] ?? [] {
            let area = entry["area"] as? String ?? ""
            if let manifest = entry["manifest"] as? [String: Any] {
                addManifest(manifest)
                add(manifest: manifest)  // its rules and test inputs, for the renderer and link targets
            }
            if let raw = entry["manifest_raw"] as? String { add("manifest", raw) }
            if let encoded = entry["manifest_raw_base64"] as? String, let data = Data(base64Encoded: encoded) {
                add("manifest", data: data)
            }
            let input = entry["input"]
            var texts = (input as? [Any] ?? [input as Any]).compactMap { $0 as? String }
            if let object = input as? [String: Any] {
                if let url = object["url"] as? String {
                    texts.append(url)
                    if let regex = object["regex"] as? String {
                        add("template", [regex, "$0", url, ""].joined(separator: SeedCorpus.separator))
                    }
                }
            }
            for text in texts {
                switch area {
                case "x-callback": add("xcallback", text)
                case "deeplink": add("deeplink", text)
                case "input", "network":
                    add("link-input", text)
                    add("deeplink", text)
                default: break
                }
            }
        }
    }
}
