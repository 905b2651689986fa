extension ClaimsConformanceCases {
    /// Details, apps, legacy forms and defaults.
    static var details: [ClaimsConformanceCase] {
        [
            aasa(
                "appIDs present but empty ignores appID",
                "https://example.com/x",
                "no_match",
                applinks: #"{"details":[{"appIDs":[],"appID":"\#(app)","components":[{"/":"*"}]}]}"#
            ),
            aasa(
                "appIDs wins over appID",
                "https://example.com/x",
                "match",
                applinks: #"{"details":[{"appIDs":["\#(app)"],"appID":"\#(other)","components":[{"/":"*"}]}]}"#
            ),
            aasa(
                "appID beside appIDs names no app",
                "https://example.com/x",
                "no_match",
                applinks: #"{"details":[{"appIDs":["\#(app)"],"appID":"\#(other)","components":[{"/":"*"}]}]}"#,
                app: other
            ),
            aasa(
                "the legacy appID",
                "https://example.com/x",
                "match",
                applinks: #"{"details":[{"appID":"\#(app)","paths":["*"]}]}"#
            ),
            aasa(
                "legacy paths",
                "https://example.com/buy/1",
                "match",
                applinks: #"{"apps":[],"details":[{"appID":"\#(app)","paths":["/buy/*"]}]}"#
            ),
            aasa(
                "legacy NOT exclusions",
                "https://example.com/buy/secret",
                "exclude",
                applinks: #"{"details":[{"appID":"\#(app)","paths":["NOT /buy/secret","/buy/*"]}]}"#
            ),
            aasa(
                "legacy paths ignore the query",
                "https://example.com/buy/1?x=1",
                "match",
                applinks: #"{"details":[{"appID":"\#(app)","paths":["/buy/*"]}]}"#
            ),
            aasa(
                "paths are ignored when components are present",
                "https://example.com/buy/1",
                "no_match",
                applinks: #"{"details":[{"appIDs":["\#(app)"],"components":[{"/":"/sell/*"}],"paths":["/buy/*"]}]}"#
            ),
            aasa(
                "the oldest form: details keyed by app ID",
                "https://example.com/buy/1",
                "match",
                applinks: #"{"apps":[],"details":{"\#(other)":{"paths":["/x"]},"\#(app)":{"paths":["/buy/*"]}}}"#
            ),
            aasa(
                "the same app in two details: the first match found decides",
                "https://example.com/buy/1",
                "match",
                applinks:
                    #"{"details":[{"appIDs":["\#(app)"],"components":[{"/":"/sell/*"}]},{"appIDs":["\#(app)"],"components":[{"/":"/buy/*"}]}]}"#
            ),
            aasa(
                "an exclusion blocks later details",
                "https://example.com/buy/1",
                "exclude",
                applinks:
                    #"{"details":[{"appIDs":["\#(app)"],"components":[{"/":"/buy/*","exclude":true}]},{"appIDs":["\#(app)"],"components":[{"/":"*"}]}]}"#
            ),
            aasa(
                "another app's exclusion does not apply",
                "https://example.com/buy/1",
                "match",
                applinks:
                    #"{"details":[{"appIDs":["\#(other)"],"components":[{"/":"*","exclude":true}]},{"appIDs":["\#(app)"],"components":[{"/":"*"}]}]}"#
            ),
            aasa(
                "file defaults apply",
                "https://example.com/BUY",
                "match",
                applinks:
                    #"{"defaults":{"caseSensitive":false},"details":[{"appIDs":["\#(app)"],"components":[{"/":"/buy"}]}]}"#
            ),
            aasa(
                "detail defaults win over file defaults",
                "https://example.com/BUY",
                "no_match",
                applinks:
                    #"{"defaults":{"caseSensitive":false},"details":[{"appIDs":["\#(app)"],"defaults":{"caseSensitive":true},"components":[{"/":"/buy"}]}]}"#
            ),
            aasa(
                "the component wins over defaults",
                "https://example.com/BUY",
                "match",
                applinks:
                    #"{"defaults":{"caseSensitive":true},"details":[{"appIDs":["\#(app)"],"defaults":{"caseSensitive":true},"components":[{"/":"/buy","caseSensitive":false}]}]}"#
            ),
            aasa(
                "percentEncoded from defaults",
                "https://example.com/a%20b",
                "match",
                applinks:
                    #"{"details":[{"appIDs":["\#(app)"],"defaults":{"percentEncoded":false},"components":[{"/":"/a b"}]}]}"#
            ),
            aasa(
                "a pattern key in defaults applies",
                "https://example.com/x?lang=fr",
                "no_match",
                applinks:
                    #"{"details":[{"appIDs":["\#(app)"],"defaults":{"?":{"lang":"en"}},"components":[{"/":"/x"}]}]}"#
            ),
            aasa(
                "a pattern key in defaults matches",
                "https://example.com/x?lang=en",
                "match",
                applinks:
                    #"{"details":[{"appIDs":["\#(app)"],"defaults":{"?":{"lang":"en"}},"components":[{"/":"/x"}]}]}"#
            ),
            aasa(
                "exclude in defaults applies",
                "https://example.com/x",
                "exclude",
                applinks: #"{"details":[{"appIDs":["\#(app)"],"defaults":{"exclude":true},"components":[{"/":"/x"}]}]}"#
            ),
            aasa(
                "a component's exclude wins over defaults",
                "https://example.com/x",
                "match",
                applinks:
                    #"{"defaults":{"exclude":true},"details":[{"appIDs":["\#(app)"],"components":[{"/":"/x","exclude":false}]}]}"#
            ),
            aasa(
                "a file without applinks claims nothing",
                "https://example.com/x",
                "no_match",
                applinks: #"{}"#
            ),
        ]
    }
}
