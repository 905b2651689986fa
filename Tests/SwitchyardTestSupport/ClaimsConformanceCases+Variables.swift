extension ClaimsConformanceCases {
    /// `$(…)` variables, built-in and the file's own.
    static var variables: [ClaimsConformanceCase] {
        func file(_ variables: String, _ path: String, caseSensitive: Bool = true) -> String {
            #"{"substitutionVariables":\#(variables),"details":[{"appIDs":["\#(app)"],"components":[{"/":"\#(path)","caseSensitive":\#(caseSensitive)}]}]}"#
        }
        return [
            aasa("$(alpha) is one letter", "https://example.com/x/q", "match", components: #"[{"/":"/x/$(alpha)"}]"#),
            aasa(
                "$(alpha) is not a digit",
                "https://example.com/x/1",
                "no_match",
                components: #"[{"/":"/x/$(alpha)"}]"#
            ),
            aasa("$(digit) is one digit", "https://example.com/x/7", "match", components: #"[{"/":"/x/$(digit)"}]"#),
            aasa(
                "$(digit) is one character only",
                "https://example.com/x/77",
                "no_match",
                components: #"[{"/":"/x/$(digit)"}]"#
            ),
            aasa(
                "$(upper) is not lower case",
                "https://example.com/x/a",
                "no_match",
                components: #"[{"/":"/x/$(upper)"}]"#
            ),
            aasa("$(lower) is lower case", "https://example.com/x/a", "match", components: #"[{"/":"/x/$(lower)"}]"#),
            aasa(
                "$(alnum) takes letters and digits",
                "https://example.com/x/a1",
                "match",
                components: #"[{"/":"/x/$(alnum)$(alnum)"}]"#
            ),
            aasa(
                "$(xdigit) takes hex digits",
                "https://example.com/x/fF",
                "match",
                components: #"[{"/":"/x/$(xdigit)$(xdigit)"}]"#
            ),
            aasa("$(xdigit) is not g", "https://example.com/x/g", "no_match", components: #"[{"/":"/x/$(xdigit)"}]"#),
            aasa(
                "$(upper) folds when case is ignored",
                "https://example.com/x/a",
                "match",
                components: #"[{"/":"/x/$(upper)","caseSensitive":false}]"#
            ),
            aasa(
                "$(region) is an ISO region code",
                "https://example.com/GB/shop",
                "match",
                components: #"[{"/":"/$(region)/*"}]"#
            ),
            aasa(
                "UK is not a region code",
                "https://example.com/UK/shop",
                "no_match",
                components: #"[{"/":"/$(region)/*"}]"#
            ),
            aasa(
                "$(region) keeps case",
                "https://example.com/gb/shop",
                "no_match",
                components: #"[{"/":"/$(region)/*"}]"#
            ),
            aasa(
                "$(region) folds when case is ignored",
                "https://example.com/gb/shop",
                "match",
                components: #"[{"/":"/$(region)/*","caseSensitive":false}]"#
            ),
            aasa(
                "$(lang) is an ISO language code",
                "https://example.com/fr/shop",
                "match",
                components: #"[{"/":"/$(lang)/*"}]"#
            ),
            aasa(
                "$(lang) is not any two letters",
                "https://example.com/qq/shop",
                "no_match",
                components: #"[{"/":"/$(lang)/*"}]"#
            ),
            aasa(
                "$(lang)_$(region)",
                "https://example.com/en_US",
                "match",
                components: #"[{"/":"/$(lang)_$(region)"}]"#
            ),
            aasa(
                "an undefined variable matches nothing",
                "https://example.com/x",
                "no_match",
                components: #"[{"/":"/$(nothing)*"}]"#
            ),
            aasa(
                "an undefined variable does not stop later components",
                "https://example.com/x",
                "match",
                components: #"[{"/":"/$(nothing)*"},{"/":"/x"}]"#
            ),
            aasa("$( always begins a variable", "https://example.com/$(x", "no_match", components: #"[{"/":"/$(x"}]"#),
            aasa(
                "the file's own variable",
                "https://example.com/menu/pizza/1",
                "match",
                applinks: file(#"{"food":["burrito","pizza"]}"#, "/menu/$(food)/*")
            ),
            aasa(
                "a value the variable does not list",
                "https://example.com/menu/salad/1",
                "no_match",
                applinks: file(#"{"food":["burrito","pizza"]}"#, "/menu/$(food)/*")
            ),
            aasa(
                "variable names keep case",
                "https://example.com/menu/pizza",
                "no_match",
                applinks: file(#"{"food":["pizza"]}"#, "/menu/$(Food)")
            ),
            aasa(
                "values may use *",
                "https://example.com/shoes/red/42",
                "match",
                applinks: file(#"{"cat":["shoes/*","hats"]}"#, "/$(cat)")
            ),
            aasa(
                "values may use ?",
                "https://example.com/x/AB",
                "match",
                applinks: file(#"{"code":["A?"]}"#, "/x/$(code)")
            ),
            aasa(
                "a ? value is one character",
                "https://example.com/x/ABC",
                "no_match",
                applinks: file(#"{"code":["A?"]}"#, "/x/$(code)")
            ),
            aasa(
                "caseSensitive false folds the file's variables",
                "https://example.com/menu/PIZZA",
                "match",
                applinks: file(#"{"food":["Pizza"]}"#, "/menu/$(food)", caseSensitive: false)
            ),
            aasa(
                "an empty list matches nothing",
                "https://example.com/menu/",
                "no_match",
                applinks: file(#"{"food":[]}"#, "/menu/$(food)")
            ),
        ]
    }
}
