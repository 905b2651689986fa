extension ClaimsConformanceCases {
    /// Google's Digital Asset Links API: statements, targets, fingerprints, includes and the three outcomes.
    static var assetLinks: [ClaimsConformanceCase] {
        let list = #""\#(wellKnown)":"[\#(appStatement())]""#
        func chain(_ length: Int) -> String {
            // example.com includes /1.json, which includes /2.json, … and the last one states the link.
            var files = [#""\#(wellKnown)":"[\#(include("https://example.com/1.json"))]""#]
            for step in 1...length {
                let body = step == length ? appStatement() : include("https://example.com/\(step + 1).json")
                files.append(#""https://example.com/\#(step).json":"[\#(body)]""#)
            }
            return files.joined(separator: ",")
        }
        let web = #"{"namespace":"web","site":"https://other.example"}"#
        return [
            links("an app statement links", files: list, outcome: "success", linked: true),
            links(
                "another fingerprint does not",
                files: list,
                target:
                    #"{"namespace":"android_app","package_name":"com.example","sha256_cert_fingerprint":"\#(otherFingerprint)"}"#,
                outcome: "success",
                linked: false
            ),
            links(
                "another package does not",
                files: list,
                target:
                    #"{"namespace":"android_app","package_name":"com.other","sha256_cert_fingerprint":"\#(fingerprint)"}"#,
                outcome: "success",
                linked: false
            ),
            links(
                "another relation does not",
                files: list,
                relation: "delegate_permission/common.get_login_creds",
                outcome: "success",
                linked: false
            ),
            links(
                "one of several fingerprints",
                files: #""\#(wellKnown)":"[\#(appStatement(fingerprints: [otherFingerprint, fingerprint]))]""#,
                outcome: "success",
                linked: true
            ),
            // What goes wrong is said beside the answer: an invalid statement or a failed include makes the outcome a
            // fetch error, and `linked` still says what the valid statements say.
            links(
                "a malformed statement is skipped, the others kept, and the error said",
                files: #""\#(wellKnown)":"[{\"relation\":\"not-a-list\"},42,\#(appStatement())]""#,
                outcome: "fetch_error",
                linked: true
            ),
            links(
                "a malformed fingerprint drops only itself, and the error is said",
                files: #""\#(wellKnown)":"[\#(appStatement(fingerprints: ["AA:BB", fingerprint]))]""#,
                outcome: "fetch_error",
                linked: true
            ),
            links(
                "a lower-case fingerprint in the file is malformed",
                files: #""\#(wellKnown)":"[\#(appStatement(fingerprints: [fingerprint.lowercased()]))]""#,
                outcome: "fetch_error",
                linked: false
            ),
            links(
                "an android_app target without a fingerprint is invalid, beside a valid statement",
                files:
                    #""\#(wellKnown)":"[{\"relation\":[\"\#(handleAll)\"],\"target\":{\"namespace\":\"android_app\",\"package_name\":\"com.other\"}},\#(appStatement())]""#,
                outcome: "fetch_error",
                linked: true
            ),
            links(
                "an invalid relation in a statement is an error, its valid one still links",
                files:
                    #""\#(wellKnown)":"[{\"relation\":[\"Bad Relation\",\"\#(handleAll)\"],\"target\":{\"namespace\":\"android_app\",\"package_name\":\"com.example\",\"sha256_cert_fingerprints\":[\"\#(fingerprint)\"]}}]""#,
                outcome: "fetch_error",
                linked: true
            ),
            links(
                "a web target whose site has a path is an invalid statement",
                files:
                    #""\#(wellKnown)":"[{\"relation\":[\"\#(handleAll)\"],\"target\":{\"namespace\":\"web\",\"site\":\"https://other.example/path\"}}]""#,
                target: web,
                outcome: "fetch_error",
                linked: false
            ),
            links("an empty list links nothing", files: #""\#(wellKnown)":"[]""#, outcome: "success", linked: false),
            links(
                "a web target",
                files:
                    #""\#(wellKnown)":"[{\"relation\":[\"\#(handleAll)\"],\"target\":{\"namespace\":\"web\",\"site\":\"https://other.example\"}}]""#,
                target: web,
                outcome: "success",
                linked: true
            ),
            links(
                "a web target compares sites, not spellings",
                files:
                    #""\#(wellKnown)":"[{\"relation\":[\"\#(handleAll)\"],\"target\":{\"namespace\":\"web\",\"site\":\"HTTPS://Other.Example:443/\"}}]""#,
                target: web,
                outcome: "success",
                linked: true
            ),
            links(
                "a web target with another scheme",
                files:
                    #""\#(wellKnown)":"[{\"relation\":[\"\#(handleAll)\"],\"target\":{\"namespace\":\"web\",\"site\":\"http://other.example\"}}]""#,
                target: web,
                outcome: "success",
                linked: false
            ),
            // Fetching.
            links("a missing file is a fetch error", files: "", outcome: "fetch_error", linked: false),
            links(
                "a file that is not JSON is a fetch error",
                files: #""\#(wellKnown)":"[1,""#,
                outcome: "fetch_error",
                linked: false
            ),
            links(
                "a file that is not a list is a fetch error",
                files: #""\#(wellKnown)":"{}""#,
                outcome: "fetch_error",
                linked: false
            ),
            links(
                "another site's file does not count",
                files: #""https://other.example/.well-known/assetlinks.json":"[\#(appStatement())]""#,
                outcome: "fetch_error",
                linked: false
            ),
            // Includes.
            links("an include is read", files: chain(1), outcome: "success", linked: true),
            links("includes five deep are read", files: chain(5), outcome: "success", linked: true),
            links(
                "an include six deep is dropped, and that is said",
                files: chain(6),
                outcome: "fetch_error",
                linked: false
            ),
            links(
                "a missing include drops only itself, and that is said",
                files: #""\#(wellKnown)":"[\#(include("https://example.com/gone.json")),\#(appStatement())]""#,
                outcome: "fetch_error",
                linked: true
            ),
            links(
                "a missing include after the linking statement is said too",
                files: #""\#(wellKnown)":"[\#(appStatement()),\#(include("https://example.com/gone.json"))]""#,
                outcome: "fetch_error",
                linked: true
            ),
            links(
                "a broken include drops only itself, and that is said",
                files:
                    #""\#(wellKnown)":"[\#(include("https://example.com/bad.json"))]","https://example.com/bad.json":"nope""#,
                outcome: "fetch_error",
                linked: false
            ),
            links(
                "an invalid statement in an include is said",
                files:
                    #""\#(wellKnown)":"[\#(include("https://example.com/1.json")),\#(appStatement())]","https://example.com/1.json":"[42]""#,
                outcome: "fetch_error",
                linked: true
            ),
            links(
                "an https list may not include an http one",
                files:
                    #""\#(wellKnown)":"[\#(include("http://example.com/list.json"))]","http://example.com/list.json":"[\#(appStatement())]""#,
                outcome: "fetch_error",
                linked: false
            ),
            links(
                "includes that loop end",
                files:
                    #""\#(wellKnown)":"[\#(include("https://example.com/a.json"))]","https://example.com/a.json":"[\#(include("https://example.com/.well-known/assetlinks.json"))]""#,
                outcome: "success",
                linked: false
            ),
            // Queries that can never succeed.
            links(
                "a source without a scheme",
                files: list,
                source: "example.com",
                outcome: "query_parsing_error",
                linked: false
            ),
            links(
                "a source with a path",
                files: list,
                source: "https://example.com/app",
                outcome: "query_parsing_error",
                linked: false
            ),
            links(
                "a source's host compares without case",
                files: list,
                source: "https://EXAMPLE.com",
                outcome: "success",
                linked: true
            ),
            links(
                "a relation without a kind",
                files: list,
                relation: "handle_all_urls",
                outcome: "query_parsing_error",
                linked: false
            ),
            links(
                "a relation in upper case",
                files: list,
                relation: "delegate_permission/Common.handle_all_urls",
                outcome: "query_parsing_error",
                linked: false
            ),
            links(
                "a lower-case fingerprint in the query",
                files: list,
                target:
                    #"{"namespace":"android_app","package_name":"com.example","sha256_cert_fingerprint":"\#(fingerprint.lowercased())"}"#,
                outcome: "query_parsing_error",
                linked: false
            ),
            links(
                "a short fingerprint in the query",
                files: list,
                target:
                    #"{"namespace":"android_app","package_name":"com.example","sha256_cert_fingerprint":"AA:BB:CC"}"#,
                outcome: "query_parsing_error",
                linked: false
            ),
            links(
                "an unknown namespace",
                files: list,
                target: #"{"namespace":"ios_app","package_name":"com.example"}"#,
                outcome: "query_parsing_error",
                linked: false
            ),
            links(
                "a source with surrounding white space",
                files: list,
                source: " https://example.com",
                outcome: "query_parsing_error",
                linked: false
            ),
            links(
                "a package name with surrounding white space",
                files: list,
                target:
                    #"{"namespace":"android_app","package_name":" com.example ","sha256_cert_fingerprint":"\#(fingerprint)"}"#,
                outcome: "query_parsing_error",
                linked: false
            ),
            links(
                "a web target whose site has a path",
                files:
                    #""\#(wellKnown)":"[{\"relation\":[\"\#(handleAll)\"],\"target\":{\"namespace\":\"web\",\"site\":\"https://other.example\"}}]""#,
                target: #"{"namespace":"web","site":"https://other.example/path"}"#,
                outcome: "query_parsing_error",
                linked: false
            ),
            links(
                "a web target with surrounding white space",
                files: list,
                target: #"{"namespace":"web","site":"https://other.example "}"#,
                outcome: "query_parsing_error",
                linked: false
            ),
            links(
                "a web target that is not a site",
                files: list,
                target: #"{"namespace":"web","site":"other.example"}"#,
                outcome: "query_parsing_error",
                linked: false
            ),
        ]
    }

    /// Lines the protocol answers with an error, and goes on.
    static var protocolErrors: [ClaimsConformanceCase] {
        [
            ClaimsConformanceCase(
                name: "a line that is not JSON",
                request: "{nope",
                answer:
                    #"{"id":null,"error":"the line is not JSON: expected a member name in double quotes, found 'n' at column 2"}"#
            ),
            ClaimsConformanceCase(
                name: "a line that is not an object",
                request: "[1]",
                answer: #"{"id":null,"error":"the line is an array, not a JSON object"}"#
            ),
            ClaimsConformanceCase(
                name: "a request of neither kind",
                request: #"{"id":"x"}"#,
                answer:
                    #"{"id":"x","error":"the request has neither \"aasa\" (an AASA decision) nor \"source\" (an asset-links check)"}"#
            ),
            ClaimsConformanceCase(
                name: "an AASA request without its URL",
                request: #"{"id":7,"aasa":{},"domain":"example.com","appId":"A.b"}"#,
                answer: #"{"id":7,"error":"the AASA request has no \"url\""}"#
            ),
        ]
    }
}
