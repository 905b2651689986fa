// The program of WebLinks' overview, which shows it slice by slice. `swift build` builds it, and
// SwitchyardCLITests runs it: its output must be exactly the `// → ` lines, in order.

// snippet.normalise
import WebLinks

// The scheme and host are lower-cased, the host in punycode and without its trailing dot, the default port dropped;
// non-ASCII characters in the path, query and fragment are percent-encoded, their letters and escapes (valid or not)
// are kept.
let link = try Link("  HTTPS://Bücher.Example.:443/Straße?q=%zz \n")
print(link)
// → https://xn--bcher-kva.example/Stra%C3%9Fe?q=%zz
print(link.scheme, link.host, link.effectivePort)
// → https xn--bcher-kva.example 443

// A host written as a number is the address a browser would connect to; a space is percent-encoded.
print(try Link("http://2130706433:8080/a b"))
// → http://127.0.0.1:8080/a%20b

// Normalising a link's own text gives the same link.
print(try Link(link.text) == link)
// → true
// snippet.end

// snippet.refuse
let refused = [
    "",
    "example.com/page",
    "tg://resolve?domain=Example",
    "https://a@b@example.com/",
    "https://example.com:99999/",
    "https://x.com/\u{2028}",
]
for text in refused {
    do {
        _ = try Link(text)
    } catch {
        print(error.code, error)
    }
}
// → empty the link is empty [E_EMPTY_INPUT]
// → notAbsolute "example.com/page" is not an absolute URL: it needs a scheme such as https; did you mean "https://example.com/page"? [E_NOT_ABSOLUTE]
// → notWebLink only web links are resolved: the scheme "tg" is not http or https [E_NOT_WEB_LINK]
// → userinfo the link has a user name before its host ("a@b@example.com"): the part before '@' can be made to look like the host, so such links are refused [E_USERINFO]
// → badPort the port "99999" is not a number from 0 to 65535 [E_BAD_PORT]
// → controlCharacter the link contains the control character U+2028 at character 15 [E_CONTROL_CHAR]
// snippet.end
