import DevicePrediction
import SwitchyardTestSupport
import Testing
import WebLinks

/// The device file: defaults, what is refused and where, the host rules and the filter paths.
@Suite struct DeviceReaderTests {
    @Test func missingBooleansAreTrueAndMissingListsEmpty() throws {
        let device = try Device(
            bytes: Array(#"{"platform":"android","apps":[{"package":"com.a","filters":[{}]}]}"#.utf8)
        )
        guard case .android(let android) = device else {
            Issue.record("not android")
            return
        }
        let app = try #require(android.apps.first)
        #expect(app.isBrowser && app.enabled && app.componentEnabled && app.linkHandlingAllowed)
        #expect(app.verified == nil && app.userSelected.isEmpty && app.fingerprints.isEmpty)
        #expect(app.filters.first?.autoVerify == true && app.filters.first?.hosts.isEmpty == true)
        #expect(app.pointer == "/apps/0" && app.filters.first?.pointer == "/apps/0/filters/0")
    }

    @Test(
        arguments: PredictionCases.errors.filter {
            $0.request.contains("\"platform\"") && $0.request.contains("\"link\"")
        }
    )
    func refusesWithThePointer(_ refusal: PredictionErrorCase) throws {
        let node = try JSONReader().parse(refusal.request)
        do {
            _ = try Device(json: node)
            _ = try TappedLink(node["link"]?.stringValue ?? "")
            _ = try GivenDomainFiles(json: node["files"])
            Issue.record("\(refusal.name) was read")
        } catch {
            #expect(error.description.hasPrefix(refusal.message), "\(error.description)")
        }
    }

    @Test func anErrorFromATextHasItsLineAndColumn() throws {
        let text = "{\n  \"platform\": \"android\",\n  \"apps\": [{\"package\": 7}]\n}"
        do {
            _ = try Device(bytes: Array(text.utf8))
            Issue.record("a number was read as a package")
        } catch {
            #expect(error.pointer == "/apps/0/package")
            #expect(error.position == SourcePosition(line: 3, column: 24, offset: 50))
            #expect(error.description == "/apps/0/package: expected a string, found a number")
        }
    }

    @Test(arguments: [
        ("a.example", true), ("*.a.example", true), ("localhost", true), (".a.example", true), ("a..b", true),
        ("", false), ("a b", false), ("https://a.example", false), ("a.example/x", false), ("a.*.example", false),
        ("a.example:443", false), ("a\u{202E}b.example", false),
    ])
    func hostsAreWellFormed(_ host: String, _ wellFormed: Bool) {
        #expect(HostName.isWellFormed(host) == wellFormed)
    }

    @Test(arguments: [
        ("a.example", true), ("m.a.example", true), ("192.0.2.7", true), ("xn--bcher-kva.example", true),
        ("a-b.c_d.example", true),
        ("localhost", false), (".a.example", false), ("a.example.", false), ("a..example", false), ("a.b1", false),
        ("a.b", false), ("-a.example", false), ("0.1.2.3", false), ("256.1.1.1", false), ("::1", false),
    ])
    func domainsAreAndroidsDomainNames(_ host: String, _ domain: Bool) {
        #expect(HostName.isDomain(host) == domain)
    }

    @Test(arguments: [
        ("*.b.example", "m.b.example", true), ("*.b.example", "b.example", false), ("*b.example", "ab.example", true),
        ("*", "anything.example", true), ("B.Example", "b.example", true), ("b.example", "m.b.example", false),
    ])
    func filterHostsMatchAsAuthorityEntriesDo(_ pattern: String, _ host: String, _ matches: Bool) {
        #expect(HostName.filter(pattern, matches: host) == matches)
    }

    @Test(arguments: [
        ("*.b.example", "b.example", true), ("*.b.example", "x.y.b.example", true),
        ("*.b.example", "badb.example", false),
        ("b.example", "m.b.example", false), ("*.localhost", "a.localhost", false),
    ])
    func approvedHostsCoverTheirRootNeverALongerName(_ approved: String, _ host: String, _ covers: Bool) {
        #expect(HostName.covers(approved, host) == covers)
    }

    @Test(arguments: [
        (FilterPath.Kind.path, "/a", "/a", true), (.path, "/a", "/a/", false), (.prefix, "/a", "/ab", true),
        (.suffix, ".pdf", "/x.pdf", true), (.pattern, "/a.*", "/a/b/c", true), (.pattern, ".*/bar", "/foo/bar", false),
        (.pattern, "/x.*y", "/x1y", true), (.pattern, "/a*b", "/aaab", true), (.pattern, "/a\\.b", "/a.b", true),
        (.pattern, "/a.*", "/a", true),
        (.advancedPattern, "/[0-9]+", "/42", true), (.advancedPattern, "/[0-9]+", "/4x", false),
        (.advancedPattern, "/[^/]{2,3}/x", "/ab/x", true), (.advancedPattern, "/[^/]{2,3}/x", "/abcd/x", false),
        (.advancedPattern, "/.*/bar", "/foo/bar", false), (.advancedPattern, "/a{2}", "/aa", true),
    ])
    func pathsMatchAsPatternMatcherDoes(
        _ kind: FilterPath.Kind,
        _ pattern: String,
        _ path: String,
        _ matches: Bool
    ) throws {
        #expect(try FilterPath(kind, pattern).matches(path) == matches)
    }

    @Test(arguments: ["[]", "*a", "a{", "[a", "a\\", "a{3,1}", "a**"])
    func refusesAdvancedPatternsAndroidRefuses(_ pattern: String) {
        #expect(throws: AdvancedPatternError.self) { try FilterPath(.advancedPattern, pattern) }
    }
}
