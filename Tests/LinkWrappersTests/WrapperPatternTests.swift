import LinkWrappers
import Testing

/// Host patterns match label by label, path patterns whole; look-alikes do not match.
@Suite struct WrapperPatternTests {
    @Test(arguments: [
        ("urldefense.com", "urldefense.com", true),
        ("urldefense.com", "www.urldefense.com", false),
        ("urldefense.com", "urldefense.com.example", false),
        ("*.safelinks.protection.outlook.com", "eur01.safelinks.protection.outlook.com", true),
        ("*.safelinks.protection.outlook.com", "a.b.safelinks.protection.outlook.com", true),
        ("*.safelinks.protection.outlook.com", "safelinks.protection.outlook.com", false),
        ("*.safelinks.protection.outlook.com", "evilsafelinks.protection.outlook.com", false),
        ("*.safelinks.protection.outlook.com", "eur01.safelinks.protection.outlook.com.evil.example", false),
        ("protect-*.mimecast.com", "protect-eu.mimecast.com", true),
        ("protect-*.mimecast.com", "protect-us.mimecast.com", true),
        ("protect-*.mimecast.com", "protect-.mimecast.com", false),
        ("protect-*.mimecast.com", "protect.mimecast.com", false),
        ("protect-*.mimecast.com", "x.protect-eu.mimecast.com", false),
        ("www.google.{tld}", "www.google.com", true),
        ("www.google.{tld}", "www.google.de", true),
        ("www.google.{tld}", "www.google.co.uk", true),
        ("www.google.{tld}", "www.google.com.au", true),
        ("www.google.{tld}", "www.google.com.evil.example", false),
        ("www.google.{tld}", "www.google.co.evil", false),
        ("www.google.{tld}", "www.google.x", false),
        ("www.google.{tld}", "www.google.123", false),
        ("www.google.{tld}", "google.com", false),
        ("www.google.{tld}", "www.google.com.", false),
        ("WWW.Google.{TLD}", "www.google.com", true),
    ])
    func hostPatterns(_ pattern: String, _ host: String, _ matches: Bool) throws {
        let compiled = try #require(WrapperHostPattern(pattern))
        #expect(compiled.matches(host: host) == matches)
    }

    @Test(arguments: [
        ("/", "/", true),
        ("/", "/x", false),
        ("/l.php", "/l.php", true),
        ("/l.php", "/l.phpx", false),
        ("/evergreen-assets/safelinks/*/atp-safelinks.html", "/evergreen-assets/safelinks/1/atp-safelinks.html", true),
        ("/evergreen-assets/safelinks/*/atp-safelinks.html", "/evergreen-assets/safelinks//atp-safelinks.html", false),
        (
            "/evergreen-assets/safelinks/*/atp-safelinks.html", "/evergreen-assets/safelinks/1/2/atp-safelinks.html",
            false
        ),
        ("/v3/__**", "/v3/__https://example.com/a", true),
        ("/v3/__**", "/v3/__", true),
        ("/v3/__**", "/v3/_", false),
        ("/*/**", "/token/https%3A%2F%2Fexample.com", true),
        ("/*/**", "/token", false),
        ("/a*b", "/axxb", true),
        ("/a*b", "/ab", false),
        ("/a*b", "/ax/b", false),
    ])
    func pathPatterns(_ pattern: String, _ path: String, _ matches: Bool) throws {
        let compiled = try #require(WrapperPathPattern(pattern))
        #expect(compiled.matches(path: path.utf8) == matches)
    }
}
