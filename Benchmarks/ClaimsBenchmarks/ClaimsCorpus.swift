/// The files and links the claims benchmark decides: a realistic AASA file (shaped like large sites' files: an
/// opt-out fragment, exclusions first, locale prefixes, the file's own variables, query items, two details) with
/// links that hit and miss it, and a hostile one (10,000 components of `*a*a*a…b` and `*b*a*a…*c` patterns, query
/// patterns of the same kind) with long links built to pass its cheap checks.
package enum ClaimsCorpus {
    /// The app the links are decided for.
    package static let app = "ABCDE12345.com.example.app"

    /// A realistic file: 28 components in two details, defaults, variables.
    package static let realistic: String = {
        let excluded = ["/account/*", "/login", "/logout", "/*/checkout/*", "/cart", "/admin/*", "/api/*", "/static/*"]
        var components = [##"{"#":"no_universal_links","exclude":true,"comment":"opt-out anchor"}"##]
        components += excluded.map { #"{"/":"\#($0)","exclude":true}"# }
        components += [
            #"{"/":"/$(lang)_$(region)/product/*"}"#, #"{"/":"/$(lang)/product/*"}"#, #"{"/":"/product/$(digit)*"}"#,
            #"{"/":"/$(section)/*"}"#, #"{"/":"/help/*","?":{"articleNumber":"????"}}"#,
            #"{"/":"/search","?":{"q":"?*","page":"*"}}"#, ##"{"/":"/video/*","#":"t=*"}"##,
            #"{"/":"/u/?*","?":"ref=*","caseSensitive":true}"#, #"{"/":"/stores/$(region)/*"}"#,
            #"{"/":"/deals","?":{"id":"$(alnum)$(alnum)$(alnum)*"}}"#, #"{"/":"/gift/*","percentEncoded":false}"#,
            #"{"/":"/buy/*"}"#, #"{"/":"/sell/*"}"#, #"{"/":"/c/*/p/*"}"#, #"{"/":"/l/*.html"}"#,
        ]
        let clips = [#"{"/":"/clips/*"}"#, #"{"/":"/share/*"}"#, #"{"/":"/*","exclude":true}"#]
        return #"""
            {"applinks":{"defaults":{"caseSensitive":false},
             "substitutionVariables":{"section":["news","sport","culture","business","travel"]},
             "details":[{"appIDs":["\#(app)","ABCDE12345.com.example.app.beta"],"components":[\#(components.joined(separator: ","))]},
                        {"appIDs":["ABCDE12345.com.example.clips"],"components":[\#(clips.joined(separator: ","))]}]},
             "webcredentials":{"apps":["\#(app)"]}}
            """#
    }()

    /// Links on example.com that match, are excluded from and miss the realistic file.
    package static let realisticLinks: [String] = {
        let paths = [
            "/", "/account/settings", "/login", "/en_US/checkout/1", "/en_US/product/123-shoe", "/fr/product/9",
            "/product/12345", "/news/2024/05/story", "/sport/live", "/help/kb?articleNumber=1234",
            "/help/kb?articleNumber=12", "/search?q=shoes&page=2", "/search", "/video/42#t=30", "/u/alice?ref=home",
            "/stores/GB/london", "/stores/UK/london", "/deals?id=ab12", "/gift/caf%C3%A9", "/buy/42", "/sell/1",
            "/c/shoes/p/42", "/l/spring-sale.html", "/unknown/page", "/en_US/product/1#no_universal_links",
            "/BUY/42", "/static/app.js", "/clips/1",
        ]
        return (0..<2000).map { index in
            let path = paths[index % paths.count]
            return "https://example.com" + path + (index % 7 == 0 && !path.contains("?") ? "?utm_source=x\(index)" : "")
        }
    }()

    /// The hostile file of the issue: `count` components (default 10,000) of `*a*a*a…b` patterns (10 to 199 `*a`s) in
    /// the path, the query (as a string and as an item) and the fragment; what a backtracking matcher takes
    /// exponential time on.
    package static func hostile(count: Int = 10_000) -> String {
        var components: [String] = []
        components.reserveCapacity(count)
        for index in 0..<count {
            let pattern = String(repeating: "*a", count: 10 + index % 190) + "b"
            switch index % 4 {
            case 0: components.append(#"{"/":"\#(pattern)"}"#)
            case 1: components.append(#"{"?":"\#(pattern)"}"#)
            case 2: components.append(#"{"?":{"q":"\#(pattern)"}}"#)
            default: components.append(##"{"#":"\##(pattern)"}"##)
            }
        }
        return
            #"{"applinks":{"details":[{"appIDs":["\#(app)"],"components":[\#(components.joined(separator: ","))]}]}}"#
    }

    /// Long links against the hostile file: only `a`s everywhere; `a`s then a `b` in the wrong part; a path ending in
    /// `b` with fewer `a`s than most patterns need (the first component that fits matches).
    package static let hostileLinks: [String] = [
        "https://example.com/" + String(repeating: "a", count: 4000),
        "https://example.com/" + String(repeating: "a", count: 3000) + "?q=" + String(repeating: "a", count: 2000) + "#"
            + String(repeating: "a", count: 2000),
        "https://example.com/" + String(repeating: "a", count: 3000) + "b?q=" + String(repeating: "ab", count: 1000)
            + "a",
        "https://example.com/" + String(repeating: "a", count: 5) + "b?q=" + String(repeating: "a", count: 4000),
    ]

    /// A file built to defeat the cheap checks: `count` components of `*b*a*a…*c` (every letter they need is in the
    /// link, in an order they cannot use), so every component runs its matcher.
    package static func adversarial(count: Int = 10_000) -> String {
        let components = (0..<count).map { index in
            #"{"/":"*b\#(String(repeating: "*a", count: 10 + index % 190))*c"}"#
        }
        return
            #"{"applinks":{"details":[{"appIDs":["\#(app)"],"components":[\#(components.joined(separator: ","))]}]}}"#
    }

    /// The link the adversarial file is decided on.
    package static let adversarialLink = "https://example.com/" + String(repeating: "a", count: 4000) + "bc"
}
