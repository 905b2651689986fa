import Foundation

extension PredictionCases {
    static let a = "https://a.example/x"

    /// Android 12+: filter matching, approval levels, the switch, enabled flags, wildcards, invalid hosts, several
    /// approved apps, browsers, custom schemes, paths (`os-link-handling.md`, `domain-associations.md` §2).
    static var android: [PredictionCase] {
        [
            android(
                "a verified app opens the link directly",
                a,
                apps: [app("com.a", verified: ["a.example"]), browser()],
                opens: "com.a",
                ["com.a"]
            ),
            android(
                "a selected app opens the link directly",
                a,
                apps: [app("com.a", selected: ["a.example"]), browser()],
                opens: "com.a",
                ["com.a"]
            ),
            android(
                "verified outranks selected, even for a later install",
                a,
                apps: [
                    app("com.a", order: 1, verified: ["a.example"]), app("com.b", order: 2, selected: ["a.example"]),
                    browser(),
                ],
                opens: "com.a",
                ["com.a"]
            ),
            android(
                "an app neither verified nor selected is not offered: the browser opens it",
                a,
                apps: [app("com.a"), browser()],
                opens: "browser",
                ["com.browser"]
            ),
            android(
                "with no default browser, every browser is offered",
                a,
                apps: [app("com.a"), browser("com.b1"), browser("com.b2")],
                opens: "browser",
                ["com.b1", "com.b2"]
            ),
            android(
                "the default browser opens an unapproved link alone",
                a,
                apps: [app("com.a"), browser("com.b1"), browser("com.b2")],
                opens: "browser",
                ["com.b2"],
                extra: #","defaultBrowser":"com.b2""#
            ),
            android(
                "the switch off: a verified app is not approved",
                a,
                apps: [app("com.a", linkHandling: false, verified: ["a.example"]), browser()],
                opens: "browser",
                ["com.browser"]
            ),
            android(
                "the switch off on the verified app leaves the selected one",
                a,
                apps: [
                    app("com.a", linkHandling: false, verified: ["a.example"]), app("com.b", selected: ["a.example"]),
                    browser(),
                ],
                opens: "com.b",
                ["com.b"]
            ),
            android(
                "a disabled app is no candidate",
                a,
                apps: [app("com.a", enabled: false, verified: ["a.example"]), browser()],
                opens: "browser",
                ["com.browser"]
            ),
            android(
                "a disabled activity is no candidate",
                a,
                apps: [app("com.a", component: false, verified: ["a.example"]), browser()],
                opens: "browser",
                ["com.browser"]
            ),
            android(
                "a disabled browser is not offered",
                a,
                apps: [app("com.a"), app("com.browser", browser: true, enabled: false), browser("com.other")],
                opens: "browser",
                ["com.other"]
            ),
            android(
                "of several verified apps the most recently first-installed opens it",
                a,
                apps: [
                    app("com.a", order: 1, verified: ["a.example"]), app("com.b", order: 3, verified: ["a.example"]),
                    app("com.c", order: 2, verified: ["a.example"]), browser(),
                ],
                opens: "com.b",
                ["com.b"]
            ),
            android(
                "of several selected apps the most recently first-installed opens it",
                a,
                apps: [
                    app("com.a", order: 5, selected: ["a.example"]), app("com.b", order: 4, selected: ["a.example"]),
                    browser(),
                ],
                opens: "com.a",
                ["com.a"]
            ),
            android(
                "a wildcard filter host matches a subdomain",
                "https://m.b.example/x",
                apps: [app("com.a", filters: [filter(["*.b.example"])], verified: ["*.b.example"]), browser()],
                opens: "com.a",
                ["com.a"]
            ),
            android(
                "a wildcard filter host does not match its root",
                "https://b.example/x",
                apps: [app("com.a", filters: [filter(["*.b.example"])], verified: ["*.b.example"]), browser()],
                opens: "browser",
                ["com.browser"]
            ),
            android(
                "a verified wildcard covers the root domain",
                "https://b.example/x",
                apps: [
                    app("com.a", filters: [filter(["b.example", "*.b.example"])], verified: ["*.b.example"]), browser(),
                ],
                opens: "com.a",
                ["com.a"]
            ),
            android(
                "a verified wildcard never covers a longer name",
                "https://badb.example/x",
                apps: [
                    app("com.a", filters: [filter(["badb.example", "*.b.example"])], verified: ["*.b.example"]),
                    browser(),
                ],
                opens: "browser",
                ["com.browser"]
            ),
            android(
                "a selected wildcard covers a subdomain",
                "https://m.b.example/",
                apps: [app("com.a", filters: [filter(["*.b.example"])], selected: ["*.b.example"]), browser()],
                opens: "com.a",
                ["com.a"]
            ),
            android(
                "an https filter takes an http link",
                "http://a.example/x",
                apps: [app("com.a", verified: ["a.example"]), browser()],
                opens: "com.a",
                ["com.a"]
            ),
            android(
                "an http filter takes an https link",
                a,
                apps: [
                    app("com.a", filters: [filter(["a.example"], schemes: ["http"])], verified: ["a.example"]),
                    browser(),
                ],
                opens: "com.a",
                ["com.a"]
            ),
            android(
                "a filter without BROWSABLE takes no link",
                a,
                apps: [
                    app("com.a", filters: [filter(["a.example"], categories: ["DEFAULT"])], verified: ["a.example"]),
                    browser(),
                ],
                opens: "browser",
                ["com.browser"]
            ),
            android(
                "a filter without DEFAULT takes no link",
                a,
                apps: [
                    app("com.a", filters: [filter(["a.example"], categories: ["BROWSABLE"])], verified: ["a.example"]),
                    browser(),
                ],
                opens: "browser",
                ["com.browser"]
            ),
            android(
                "a filter without VIEW takes no link",
                a,
                apps: [
                    app("com.a", filters: [filter(["a.example"], actions: ["SEND"])], verified: ["a.example"]),
                    browser(),
                ],
                opens: "browser",
                ["com.browser"]
            ),
            android(
                "actions and categories by their full names",
                a,
                apps: [
                    app(
                        "com.a",
                        filters: [
                            filter(
                                ["a.example"],
                                actions: ["android.intent.action.VIEW"],
                                categories: ["android.intent.category.BROWSABLE", "android.intent.category.DEFAULT"]
                            )
                        ],
                        verified: ["a.example"]
                    ), browser(),
                ],
                opens: "com.a",
                ["com.a"]
            ),
            android(
                "a filter for another host takes no link",
                a,
                apps: [app("com.a", filters: [filter(["c.example"])], verified: ["a.example"]), browser()],
                opens: "browser",
                ["com.browser"]
            ),
            android(
                "a host is matched without case",
                a,
                apps: [app("com.a", filters: [filter(["A.Example"])], verified: ["A.EXAMPLE"]), browser()],
                opens: "com.a",
                ["com.a"]
            ),
            android(
                "a host that is not a domain name goes to the chooser with every app and browser",
                "https://localhost/x",
                apps: [
                    app("com.a", filters: [filter(["localhost"])], verified: ["localhost"]),
                    app("com.b", filters: [filter(["localhost"])]), browser(),
                ],
                opens: "chooser",
                ["com.a", "com.b", "com.browser"]
            ),
            android(
                "a single-label host is not a domain name",
                "https://intranet/x",
                apps: [app("com.a", filters: [filter(["intranet"])], verified: ["intranet"]), browser()],
                opens: "chooser",
                ["com.a", "com.browser"]
            ),
            android(
                "an IPv6 host is not a domain name",
                "https://[::1]/x",
                apps: [app("com.a", filters: [filter(["*"])]), browser()],
                opens: "chooser",
                ["com.a", "com.browser"]
            ),
            android(
                "a host that is not a domain, one app and no browser: it opens directly",
                "https://localhost/",
                apps: [app("com.a", linkHandling: false, filters: [filter(["localhost"])])],
                opens: "com.a",
                ["com.a"]
            ),
            android(
                "a dotted IPv4 address is subject to approval",
                "https://192.0.2.7/x",
                apps: [app("com.a", filters: [filter(["192.0.2.7"])], verified: ["192.0.2.7"]), browser()],
                opens: "com.a",
                ["com.a"]
            ),
            android(
                "an invalid host never counts for approval",
                "https://a.localhost/x",
                apps: [
                    app(
                        "com.a",
                        filters: [filter(["*.localhost"])],
                        verified: ["*.localhost"],
                        selected: ["*.localhost"]
                    ), browser(),
                ],
                opens: "browser",
                ["com.browser"]
            ),
            android(
                "a verified host the app declares in no filter does not approve it",
                a,
                apps: [app("com.a", filters: [filter([], schemes: ["https"])], verified: ["a.example"]), browser()],
                opens: "browser",
                ["com.browser"]
            ),
            android(
                "no approved app and no browser: the apps that take it are offered",
                a,
                apps: [app("com.a"), app("com.b")],
                opens: "chooser",
                ["com.a", "com.b"]
            ),
            android(
                "no approved app and no browser: one app opens it directly",
                a,
                apps: [app("com.a")],
                opens: "com.a",
                ["com.a"]
            ),
            android(
                "a package with a browser activity and an app activity is offered once",
                "https://localhost/",
                apps: [browser("com.a"), app("com.a", filters: [filter(["localhost"])]), browser("com.b")],
                opens: "chooser",
                ["com.a", "com.b"]
            ),
            android(
                "no app and no browser: nothing opens it",
                a,
                apps: [app("com.a", filters: [filter(["c.example"])])],
                opens: "none",
                []
            ),
            android(
                "a custom scheme opens the one app that takes it, no approval needed",
                "twitter://status?id=20",
                apps: [app("com.t", filters: [filter(["status"], schemes: ["twitter"])], verified: []), browser()],
                opens: "com.t",
                ["com.t"]
            ),
            android(
                "a custom scheme several apps take goes to the chooser",
                "twitter://status?id=20",
                apps: [
                    app("com.t", filters: [filter([], schemes: ["twitter"])]),
                    app("com.u", filters: [filter([], schemes: ["twitter"])]), browser(),
                ],
                opens: "chooser",
                ["com.t", "com.u"]
            ),
            android(
                "a custom scheme no app takes opens nothing",
                "twitter://status",
                apps: [app("com.a"), browser()],
                opens: "none",
                []
            ),
            android(
                "a filter's path prefix takes the paths under it",
                "https://a.example/shop/42",
                apps: [
                    app(
                        "com.a",
                        filters: [filter(["a.example"], extra: #","pathPrefixes":["/shop/"]"#)],
                        verified: ["a.example"]
                    ), browser(),
                ],
                opens: "com.a",
                ["com.a"]
            ),
            android(
                "a filter's path prefix leaves other paths to the browser",
                "https://a.example/help",
                apps: [
                    app(
                        "com.a",
                        filters: [filter(["a.example"], extra: #","pathPrefixes":["/shop/"]"#)],
                        verified: ["a.example"]
                    ), browser(),
                ],
                opens: "browser",
                ["com.browser"]
            ),
            android(
                "pathPattern's .* does not backtrack",
                "https://a.example/foo/bar",
                apps: [
                    app(
                        "com.a",
                        filters: [filter(["a.example"], extra: #","pathPatterns":[".*/bar"]"#)],
                        verified: ["a.example"]
                    ), browser(),
                ],
                opens: "browser",
                ["com.browser"]
            ),
            android(
                "a filter's path matches the decoded path",
                "https://a.example/caf%C3%A9/1",
                apps: [
                    app(
                        "com.a",
                        filters: [filter(["a.example"], extra: #","paths":["/café/1"]"#)],
                        verified: ["a.example"]
                    ), browser(),
                ],
                opens: "com.a",
                ["com.a"]
            ),
            android(
                "an app without isBrowser: missing booleans are true",
                a,
                apps: [
                    #"{"package":"com.a","filters":[{"actions":["VIEW"],"categories":["BROWSABLE","DEFAULT"],"schemes":["https"],"hosts":["a.example"]}],"verified":["a.example"],"isBrowser":false}"#
                ],
                opens: "com.a",
                ["com.a"]
            ),
            android(
                "of several verified apps, a first-install time orders them too",
                a,
                apps: [
                    app("com.a", verified: ["a.example"], extra: #","firstInstallTime":1700000000000"#)
                        .replacingOccurrences(of: #""firstInstallOrder":1,"#, with: ""),
                    app("com.b", verified: ["a.example"], extra: #","firstInstallTime":1600000000000"#)
                        .replacingOccurrences(of: #""firstInstallOrder":1,"#, with: ""),
                    browser(),
                ],
                opens: "com.a",
                ["com.a"]
            ),
        ]
    }

    /// Verification derived from the domains' assetlinks.json and the apps' certificates (`verified` not given).
    static var derived: [PredictionCase] {
        let wellKnown = "https://a.example/.well-known/assetlinks.json"
        let print = #","fingerprints":["\#(fingerprint)"]"#
        func files(_ url: String = wellKnown, _ body: String = statements()) -> String {
            #"{"\#(url)":\#(body)}"#
        }
        return [
            android(
                "derived: the domain's file links the app: it opens the link",
                a,
                apps: [app("com.a", verified: nil, extra: print), browser()],
                opens: "com.a",
                ["com.a"],
                files: files()
            ),
            android(
                "derived: another certificate is not linked",
                a,
                apps: [app("com.a", verified: nil, extra: #","fingerprints":["\#(otherFingerprint)"]"#), browser()],
                opens: "browser",
                ["com.browser"],
                files: files()
            ),
            android(
                "derived: another package is not linked",
                a,
                apps: [app("com.a", verified: nil, extra: print), browser()],
                opens: "browser",
                ["com.browser"],
                files: files(wellKnown, statements("com.other"))
            ),
            android(
                "derived: no file, no verification",
                a,
                apps: [app("com.a", verified: nil, extra: print), browser()],
                opens: "browser",
                ["com.browser"]
            ),
            android(
                "derived: a filter without autoVerify is not verified",
                a,
                apps: [
                    app("com.a", filters: [filter(["a.example"], autoVerify: false)], verified: nil, extra: print),
                    browser(),
                ],
                opens: "browser",
                ["com.browser"],
                files: files()
            ),
            android(
                "derived: a wildcard host is verified by the root's file",
                "https://m.b.example/",
                apps: [app("com.a", filters: [filter(["*.b.example"])], verified: nil, extra: print), browser()],
                opens: "com.a",
                ["com.a"],
                files: files("https://b.example/.well-known/assetlinks.json")
            ),
            android(
                "derived: verified outranks the user's selection",
                a,
                apps: [
                    app("com.a", order: 1, verified: nil, extra: print),
                    app("com.b", order: 2, selected: ["a.example"]), browser(),
                ],
                opens: "com.a",
                ["com.a"],
                files: files()
            ),
            android(
                "derived: a statement list that is not JSON verifies nothing",
                a,
                apps: [app("com.a", verified: nil, extra: print), browser()],
                opens: "browser",
                ["com.browser"],
                files: files(wellKnown, "\"not json\"")
            ),
        ]
    }
}
