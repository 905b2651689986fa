extension ClaimsConformanceCases {
    /// Apple's app-site-association: which details and components apply, and the path, query and fragment rules.
    static var association: [ClaimsConformanceCase] {
        [
            aasa("a path pattern matches", "https://example.com/buy/42", "match", components: #"[{"/":"/buy/*"}]"#),
            aasa("another path does not", "https://example.com/sell/42", "no_match", components: #"[{"/":"/buy/*"}]"#),
            aasa(
                "a pattern matches the whole path, never a prefix",
                "https://example.com/buy/42",
                "no_match",
                components: #"[{"/":"/buy"}]"#
            ),
            aasa(
                "the first matching component decides: an exclusion",
                "https://example.com/buy/42",
                "exclude",
                components: #"[{"/":"/buy/42","exclude":true},{"/":"/buy/*"}]"#
            ),
            aasa(
                "the first matching component decides: a match before an exclusion",
                "https://example.com/buy/42",
                "match",
                components: #"[{"/":"/buy/*"},{"/":"/buy/42","exclude":true}]"#
            ),
            aasa(
                "an exclusion that does not match lets later components decide",
                "https://example.com/buy/42",
                "match",
                components: #"[{"/":"/buy/1","exclude":true},{"/":"/buy/*"}]"#
            ),
            aasa(
                "a fragment exclusion",
                "https://example.com/buy/42#no_universal_links",
                "exclude",
                components: ##"[{"#":"no_universal_links","exclude":true},{"/":"/buy/*"}]"##
            ),
            aasa(
                "every given key must match",
                "https://example.com/help/1?articleNumber=12",
                "no_match",
                components: #"[{"/":"/help/*","?":{"articleNumber":"????"}}]"#
            ),
            aasa(
                "a component with no keys matches anything",
                "https://example.com/any/thing?x=1#y",
                "match",
                components: "[{}]"
            ),
            aasa(
                "an unknown key does nothing",
                "https://example.com/x",
                "match",
                components: #"[{"/":"/x","exlude":true}]"#
            ),
            aasa(
                "an app the file does not name",
                "https://example.com/buy/1",
                "no_match",
                components: #"[{"/":"*"}]"#,
                app: other
            ),
            aasa("http links never match", "http://example.com/buy/1", "no_match", components: #"[{"/":"*"}]"#),
            aasa("another host never matches", "https://other.com/buy/1", "no_match", components: #"[{"/":"*"}]"#),
            aasa(
                "a subdomain is another host",
                "https://www.example.com/buy/1",
                "no_match",
                components: #"[{"/":"*"}]"#
            ),
            aasa(
                "the host compares without case",
                "https://EXAMPLE.com/buy/1",
                "match",
                components: #"[{"/":"/buy/*"}]"#,
                domain: "Example.COM"
            ),
            // Path rules.
            aasa("an empty path is /", "https://example.com", "match", components: #"[{"/":"/"}]"#),
            aasa("/ matches only the root", "https://example.com/a", "no_match", components: #"[{"/":"/"}]"#),
            aasa(
                "trailing slashes of the URL do not count",
                "https://example.com/buy//",
                "match",
                components: #"[{"/":"/buy"}]"#
            ),
            aasa(
                "trailing slashes of the pattern do not count",
                "https://example.com/buy",
                "match",
                components: #"[{"/":"/buy/"}]"#
            ),
            aasa("/* matches the parent", "https://example.com/buy", "match", components: #"[{"/":"/buy/*"}]"#),
            aasa(
                "/* matches the parent with its slash",
                "https://example.com/buy/",
                "match",
                components: #"[{"/":"/buy/*"}]"#
            ),
            aasa("/* at the root matches the root", "https://example.com/", "match", components: #"[{"/":"/*"}]"#),
            aasa(
                "the leading slash is optional",
                "https://example.com/buy/42",
                "match",
                components: #"[{"/":"buy/*"}]"#
            ),
            aasa(
                "a run of leading slashes reads as one",
                "https://example.com/abc",
                "match",
                components: #"[{"/":"//abc"}]"#
            ),
            aasa(
                "three leading slashes before a wildcard read as one",
                "https://example.com/buy/42",
                "match",
                components: #"[{"/":"///buy/*"}]"#
            ),
            aasa("* alone matches every path", "https://example.com/", "match", components: #"[{"/":"*"}]"#),
            aasa(
                "a slash is never added to the URL",
                "https://example.com/id/481",
                "no_match",
                components: #"[{"/":"/id/????"}]"#
            ),
            aasa(
                "? is exactly one character",
                "https://example.com/id/4812",
                "match",
                components: #"[{"/":"/id/????"}]"#
            ),
            // The canonical link is percent-encoded (`/%C3%A9`): the path is read decoded to count characters.
            aasa(
                "? is a character, not a byte",
                "https://example.com/é",
                "match",
                components: #"[{"/":"/?","percentEncoded":false}]"#
            ),
            aasa(
                "?* needs at least one character",
                "https://example.com/p/",
                "no_match",
                components: #"[{"/":"/p/?*"}]"#
            ),
            aasa("?* takes one or more", "https://example.com/p/xyz", "match", components: #"[{"/":"/p/?*"}]"#),
            aasa("* takes zero characters", "https://example.com/p", "match", components: #"[{"/":"/p*"}]"#),
            aasa(
                "wildcards in the middle",
                "https://example.com/a-xx-b-yy-c",
                "match",
                components: #"[{"/":"/a*b*c"}]"#
            ),
            aasa(
                "*a*a…b does not match without its b",
                "https://example.com/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                "no_match",
                components: #"[{"/":"*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b"}]"#
            ),
            aasa(
                "*a*a…b matches with it",
                "https://example.com/aaaaaaaaaaaaaaaaaaaaaaaaab",
                "match",
                components: #"[{"/":"*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b"}]"#
            ),
            aasa(
                "paths are case-sensitive by default",
                "https://example.com/BUY/1",
                "no_match",
                components: #"[{"/":"/buy/*"}]"#
            ),
            aasa(
                "caseSensitive false folds case",
                "https://example.com/BUY/1",
                "match",
                components: #"[{"/":"/buy/*","caseSensitive":false}]"#
            ),
            // Percent-encoding.
            aasa(
                "percentEncoded compares as written",
                "https://example.com/a%2Fb",
                "match",
                components: #"[{"/":"/a%2Fb"}]"#
            ),
            aasa(
                "an escaped slash is not a slash",
                "https://example.com/a%2Fb",
                "no_match",
                components: #"[{"/":"/a/b"}]"#
            ),
            aasa(
                "hex case matters as written",
                "https://example.com/a%2Fb",
                "no_match",
                components: #"[{"/":"/a%2fb"}]"#
            ),
            aasa(
                "percentEncoded false decodes the URL",
                "https://example.com/caf%C3%A9",
                "match",
                components: #"[{"/":"/café","percentEncoded":false}]"#
            ),
            aasa(
                "percentEncoded false never decodes the pattern",
                "https://example.com/a%20b",
                "no_match",
                components: #"[{"/":"/a%20b","percentEncoded":false}]"#
            ),
            // Queries.
            aasa(
                "a query string matches the whole query",
                "https://example.com/x?a=1&b=2",
                "no_match",
                components: #"[{"?":"a=1"}]"#
            ),
            aasa("a query string matches exactly", "https://example.com/x?a=1", "match", components: #"[{"?":"a=1"}]"#),
            aasa(
                "no query reads as empty: empty pattern",
                "https://example.com/x",
                "match",
                components: #"[{"?":""}]"#
            ),
            aasa(
                "no query reads as empty: ?* needs one",
                "https://example.com/x",
                "no_match",
                components: #"[{"?":"?*"}]"#
            ),
            aasa(
                "a query item matches",
                "https://example.com/help/1?articleNumber=1234",
                "match",
                components: #"[{"/":"/help/*","?":{"articleNumber":"????"}}]"#
            ),
            aasa(
                "items not named are ignored",
                "https://example.com/x?b=2&a=1&c",
                "match",
                components: #"[{"?":{"a":"1"}}]"#
            ),
            aasa(
                "a missing item reads as empty: *",
                "https://example.com/x?b=2",
                "match",
                components: #"[{"?":{"a":"*"}}]"#
            ),
            aasa(
                "a missing item reads as empty: empty",
                "https://example.com/x",
                "match",
                components: #"[{"?":{"a":""}}]"#
            ),
            aasa(
                "a missing item reads as empty: ?*",
                "https://example.com/x?b=2",
                "no_match",
                components: #"[{"?":{"a":"?*"}}]"#
            ),
            aasa("a name without = is empty", "https://example.com/x?a&b=2", "match", components: #"[{"?":{"a":""}}]"#),
            aasa(
                "every occurrence of a repeated name must match",
                "https://example.com/x?a=1&a=2",
                "no_match",
                components: #"[{"?":{"a":"1"}}]"#
            ),
            aasa(
                "repeated names that all match",
                "https://example.com/x?a=1&a=2",
                "match",
                components: #"[{"?":{"a":"?"}}]"#
            ),
            aasa(
                "a query dictionary with a non-string value is ignored as a whole",
                "https://example.com/x?b=2",
                "match",
                components: #"[{"/":"/x","?":{"a":1,"b":"3"}}]"#
            ),
            aasa(
                "query items decoded when percentEncoded is false",
                "https://example.com/x?q=a%20b",
                "match",
                components: #"[{"?":{"q":"a b"},"percentEncoded":false}]"#
            ),
            aasa(
                "query items as written by default",
                "https://example.com/x?q=a%20b",
                "no_match",
                components: #"[{"?":{"q":"a b"}}]"#
            ),
            // Fragments.
            aasa("a fragment matches", "https://example.com/x#top", "match", components: ##"[{"#":"top"}]"##),
            aasa("no fragment reads as empty", "https://example.com/x", "no_match", components: ##"[{"#":"?*"}]"##),
            aasa("no fragment matches *", "https://example.com/x", "match", components: ##"[{"#":"*"}]"##),
        ] + details
    }
}
