import DeeplinkTemplates
import Foundation

/// Fuzzes deep-link templates: a fixed set of templates (every argument kind, query, fragment, scoping) against a
/// fuzzed URL, and a template built at run time from fuzzed template-like text.
///
/// Input: `url NUL template`. In the template text, `{s}` `{t}` (strings), `{i}` (Int), `{u}` (UUID), `{b}`
/// (Bool), `{e}` (enum), `{l}` (list of Int), `{m}` (list of Int split on `;`), `{r}` (catch-all), `{q}` (string), `{p}` (Int) and `{f}` (string)
/// are arguments; everything else is literal text.
///
/// Invariants: matching never crashes or hangs; a center answers like its templates tried in order; and when a
/// fixed template matches with plain values (letters and digits), the URL built back from the values
/// (`url(for:)`, documented as the inverse of parsing) parses to the same values, query names that are arguments
/// and lists with a declared separator included. A template that binds a property twice is refused when built.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let fields = FuzzInput.fields(FuzzInput.bytes(data, size), count: 2)
    guard let url = URL(string: fields[0]) else { return 0 }
    var anyMatched = false
    for template in DeeplinkTemplateFuzzer.fixedTemplates {
        var value = DeeplinkFields()
        do throws(DeeplinkError) {
            try template.parse(url, into: &value)
        } catch {
            fuzzExpect(!error.message.isEmpty, "a mismatch without a message for \(FuzzInput.preview(fields[0]))")
            continue
        }
        anyMatched = true
        DeeplinkTemplateFuzzer.checkRoundTrip(template, value: value, url: fields[0])
    }
    let handled: Bool
    do throws(DeeplinkError) {
        handled = try DeeplinkTemplateFuzzer.center.parse(url: url)
    } catch {
        handled = false
    }
    fuzzExpect(
        handled == anyMatched,
        "the center (\(handled)) disagrees with its templates (\(anyMatched)) on \(FuzzInput.preview(fields[0]))"
    )
    if !fields[1].isEmpty, let template = DeeplinkTemplateFuzzer.template(from: fields[1]) {
        var value = DeeplinkFields()
        let (matched, elapsed) = fuzzTimed { (try? template.parse(url, into: &value)) != nil }
        fuzzExpect(
            elapsed < .milliseconds(500),
            "matching took \(elapsed): \(FuzzInput.preview(fields[1])) on \(FuzzInput.preview(fields[0]))"
        )
        fuzzExpect(
            matched == template.matches(url, startingWith: DeeplinkFields()),
            "parse and matches disagree on \(FuzzInput.preview(fields[0]))"
        )
        if matched {
            _ = template.url(for: value)
        }
        _ = template.pattern
    }
    return 0
}

/// Every property a fuzzed template can write.
struct DeeplinkFields: Equatable, DefaultInitializable {
    var id: String?
    var slug: String?
    var number: Int?
    var uuid: UUID?
    var flag: Bool?
    var section: DeeplinkSection?
    var ids: [Int]?
    var rest: String?
    var query: String?
    var page: Int?
    var fragment: String?

    /// The string values, for the round-trip precondition.
    var strings: [String] { [id, slug, rest, query, fragment].compactMap { $0 } }
}

/// A string enum argument.
enum DeeplinkSection: String, DeeplinkArgument {
    case buy, sell
}

/// The templates and checks of the deep-link target.
enum DeeplinkTemplateFuzzer {
    /// Templates covering each argument kind; a literal that follows an argument starts with a character that no
    /// argument's written form contains (`/`, `.`, `?`, `&`, `#`), which the round trip relies on.
    static let fixedTemplates: [Deeplink<DeeplinkFields>] = {
        do {
            return [
                try "/test/\(\.id)/\(\.slug)",
                try "/artist/\(\.slug)/\(\.number)",
                try "/event/\(\.uuid)/\(\.section)/\(\.flag)",
                try "/items/\(list: \.ids)",
                try "/files/\(rest: \.rest)",
                try "/files/\(rest: \.rest)/raw",
                try "/search?q=\(\.query)&page=\(\.page)",
                // Query names that are arguments, taken by position, mixed with a name found anywhere.
                try "/pair?\(\.slug)=\(\.query)",
                try "/pairs?a=\(\.id)&\(\.slug)=\(\.page)#\(\.fragment)",
                try "/ids/\(list: \.ids, separator: ";")",
                try "/doc/\(\.id)#\(\.fragment)",
                try "/a/\(\.id).\(\.slug)",
                (try "/item/\(\.id)" as Deeplink<DeeplinkFields>).scoped(scheme: "myapp"),
                (try "/user/\(\.slug)" as Deeplink<DeeplinkFields>).scoped(host: "example.com"),
            ]
        } catch {
            fatalError("a fixed deep-link template does not build: \(error)")
        }
    }()

    /// A center with the fixed templates in order, each handler accepting.
    static let center: DeeplinksCenter = {
        let center = DeeplinksCenter()
        for template in fixedTemplates {
            center.register(deeplink: template, assigningTo: DeeplinkFields()) { _, _ in true }
        }
        return center
    }()

    /// Parse → `url(for:)` → parse gives the same values, for plain string values.
    ///
    /// Plain means non-empty letters and digits: an empty argument or one holding the next literal's text cannot
    /// be told apart when the URL is read again (that ambiguity is inherent to the template, not a bug).
    static func checkRoundTrip(_ template: Deeplink<DeeplinkFields>, value: DeeplinkFields, url: String) {
        let plain = value.strings.allSatisfy { text in
            !text.isEmpty
                && text.unicodeScalars.allSatisfy {
                    $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0)
                }
        }
        guard plain else { return }
        // A custom scheme's "host" is the first path segment, so the URL is built without one.
        let built =
            template.scheme == nil
            ? template.url(for: value, scheme: "https", host: template.host ?? "example.com") : template.url(for: value)
        guard let builtURL = URL(string: built) else {
            fuzzExpect(
                false,
                "url(for:) built \(FuzzInput.preview(built)), which is not a URL (from \(FuzzInput.preview(url)))"
            )
            return
        }
        var again = DeeplinkFields()
        do throws(DeeplinkError) {
            try template.parse(builtURL, into: &again)
        } catch {
            fuzzExpect(
                false,
                "\(template.pattern): \(FuzzInput.preview(url)) → \(value) → \(FuzzInput.preview(built)) does not match: \(error)"
            )
            return
        }
        fuzzExpect(
            again == value,
            "\(template.pattern): \(FuzzInput.preview(url)) → \(value) → \(FuzzInput.preview(built)) → \(again)"
        )
    }

    /// A template from template-like text (see the file's documentation); nil when it cannot be built (two
    /// adjacent arguments, or a property bound twice, which must be refused).
    static func template(from text: String) -> Deeplink<DeeplinkFields>? {
        var interpolation = DeeplinkInterpolation<DeeplinkFields>(literalCapacity: text.count, interpolationCount: 0)
        var rest = Substring(text)
        var bound: Set<Character> = []
        var repeated = false
        do throws(DeeplinkError) {
            while let open = rest.firstIndex(of: "{") {
                interpolation.appendLiteral(String(rest[..<open]))
                let afterOpen = rest.index(after: open)
                guard afterOpen < rest.endIndex, let close = rest[afterOpen...].firstIndex(of: "}"),
                    rest.distance(from: afterOpen, to: close) == 1
                else {
                    interpolation.appendLiteral("{")
                    rest = rest[afterOpen...]
                    continue
                }
                // `{l}` and `{m}` bind the same property; binding one twice must be refused.
                let property = rest[afterOpen] == "m" ? "l" : rest[afterOpen]
                if "stiubelmrqpf".contains(property) {
                    repeated = repeated || !bound.insert(property).inserted
                }
                switch rest[afterOpen] {
                case "s": try interpolation.appendInterpolation(\.id)
                case "t": try interpolation.appendInterpolation(\.slug)
                case "i": try interpolation.appendInterpolation(\.number)
                case "u": try interpolation.appendInterpolation(\.uuid)
                case "b": try interpolation.appendInterpolation(\.flag)
                case "e": try interpolation.appendInterpolation(\.section)
                case "l": try interpolation.appendInterpolation(list: \.ids)
                case "m": try interpolation.appendInterpolation(list: \.ids, separator: ";")
                case "r": try interpolation.appendInterpolation(rest: \.rest)
                case "q": try interpolation.appendInterpolation(\.query)
                case "p": try interpolation.appendInterpolation(\.page)
                case "f": try interpolation.appendInterpolation(\.fragment)
                default: interpolation.appendLiteral(String(rest[open...close]))
                }
                rest = rest[rest.index(after: close)...]
            }
            interpolation.appendLiteral(String(rest))
        } catch {
            fuzzExpect(
                error.code != .repeatedArgument || repeated,
                "\(FuzzInput.preview(text)) was refused as repeating an argument: \(error)"
            )
            return nil
        }
        fuzzExpect(!repeated, "\(FuzzInput.preview(text)) binds a property twice and was not refused")
        return Deeplink(stringInterpolation: interpolation)
    }
}
