/// Wrapped links of every kind the built-in wrapper catalog decodes, each around ``inner``: what the resolver, CLI and
/// server tests resolve offline to the inner link's openings (the bundled rules open it in X as ``innerAppURL``).
public enum WrappedLinks {
    /// The link every case carries.
    public static let inner = "https://twitter.com/jack/status/20"
    /// What X's action makes of it with the bundled rules.
    public static let innerAppURL = "twitter://status?id=20"
    /// ``inner`` as a query parameter's value (every byte but the unreserved ones percent-encoded).
    public static let encodedInner = encode(inner)

    /// `text` with every byte but the unreserved ones (`A-Z a-z 0-9 - . _ ~`) percent-encoded, as
    /// `encodeURIComponent` and the gateways write a link into a query parameter.
    public static func encode(_ text: String) -> String {
        text.utf8.map { byte in
            let unreserved =
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "-._~".utf8.contains(byte)
            return unreserved
                ? String(Unicode.Scalar(byte)) : "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
        }.joined()
    }

    /// One link per wrapper of the catalog (by its id), and the name its step has.
    public static let cases: [(id: String, name: String, link: String)] = [
        (
            "safelinks", "Microsoft Defender Safe Links",
            "https://eur01.safelinks.protection.outlook.com/?url=\(encodedInner)&data=x&reserved=0"
        ),
        (
            "safelinks-teams", "Microsoft Defender Safe Links in Teams",
            "https://statics.teams.cdn.office.net/evergreen-assets/safelinks/1/atp-safelinks.html?url=\(encodedInner)&locale=en-us&dest=x&pc=y"
        ),
        (
            "proofpoint-v1", "Proofpoint URL Defense v1",
            "https://urldefense.proofpoint.com/v1/url?u=\(encodedInner)&k=a&r=b&m=c&s=d"
        ),
        (
            "proofpoint-v2", "Proofpoint URL Defense v2",
            "https://urldefense.proofpoint.com/v2/url?u=https-3A__twitter.com_jack_status_20&d=DwMFaQ&c=a&r=b&m=c&s=d&e="
        ),
        (
            "proofpoint-v3", "Proofpoint URL Defense v3",
            "https://urldefense.com/v3/__https://twitter.com/jack*status*20__;Ly8!!AbC!dEf$"
        ),
        (
            "trend-micro", "Trend Micro Email Security",
            "https://imsva91-ctp.trendmicro.com/wis/clicktime/v1/query?url=\(encodedInner)&umid=1&auth=2"
        ),
        ("barracuda", "Barracuda Link Protection", "https://linkprotect.cudasvc.com/url?a=\(encodedInner)&c=E,1,x"),
        ("cisco", "Cisco Secure Email", "https://secure-web.cisco.com/1AbCdEf-gHiJ/\(encodedInner)"),
        (
            "sophos", "Sophos Email",
            "https://eu-west-1.protection.sophos.com/?d=twitter.com&u=aHR0cHM6Ly90d2l0dGVyLmNvbS9qYWNrL3N0YXR1cy8yMA==&i=a&t=b&h=c&s=d"
        ),
        ("symantec", "Symantec click-time protection", "https://clicktime.symantec.com/3KtDoo7?u=\(encodedInner)"),
        (
            "trellix", "Trellix (FireEye) URL protection",
            "https://protect2.fireeye.com/v1/url?k=a&q=b&e=c&u=\(encodedInner)"
        ),
        ("google", "Google redirect", "https://www.google.co.uk/url?sa=t&q=&url=\(encodedInner)&ved=0"),
        ("duckduckgo", "DuckDuckGo redirect", "https://duckduckgo.com/l/?uddg=\(encodedInner)&rut=abc"),
        ("facebook", "Facebook link shim", "https://l.facebook.com/l.php?u=\(encodedInner)&h=AT0"),
        ("instagram", "Instagram link shim", "https://l.instagram.com/?u=\(encodedInner)&e=ATM"),
        ("messenger", "Messenger link shim", "https://l.messenger.com/l.php?u=\(encodedInner)&h=x"),
        ("slack", "Slack redirect", "https://slack-redir.net/link?url=\(encodedInner)&v=3"),
        ("linkedin", "LinkedIn safety redirect", "https://www.linkedin.com/safety/go?url=\(encodedInner)&trk=x"),
        ("youtube", "YouTube redirect", "https://www.youtube.com/redirect?event=video_description&q=\(encodedInner)"),
        ("steam", "Steam link filter", "https://steamcommunity.com/linkfilter/?url=\(inner)"),
        ("vk", "VK away page", "https://vk.com/away.php?to=\(encodedInner)&cc_key="),
    ]

    /// Trend Micro around Safe Links around Proofpoint v3 around ``inner``, as forwarded mail has it.
    public static let nested =
        "https://imsva91-ctp.trendmicro.com/wis/clicktime/v1/query?url=https%3A%2F%2Feur01.safelinks.protection.outlook.com%2F%3Furl%3Dhttps%253A%252F%252Furldefense.com%252Fv3%252F__https%253A%252F%252Ftwitter.com%252Fjack%252Fstatus%252F20__%253B%2521%2521AbC%2521dEf%2524%26data%3Dx&umid=1"

    /// Links on look-alike hosts, which are no wrappers: resolved as they are.
    public static let lookAlikes = [
        "https://safelinks.protection.outlook.com.evil.example/?url=\(encodedInner)",
        "https://urldefense.com.example/v3/__https://twitter.com/jack/status/20__;!!x$",
        "https://www.google.com.evil.example/url?q=\(encodedInner)",
        "https://l.facebook.com.evil.example/l.php?u=\(encodedInner)",
    ]

    /// An opaque wrapper: Mimecast's, which only its service can decode.
    public static let mimecast = "https://protect-eu.mimecast.com/s/AbCdEfGhIjK?domain=twitter.com"
    /// A malformed one: a Proofpoint v3 marker with no byte left in its data.
    public static let malformed = "https://urldefense.com/v3/__https://twitter.com/jack/status/20*__;!!x$"
}
