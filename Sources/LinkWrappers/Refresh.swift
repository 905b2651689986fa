import WebLinks

/// A declarative refresh, as a `Refresh` header or `<meta http-equiv="refresh" content="…">` gives it: after
/// ``delay`` seconds, the page goes to ``target``. Parsed exactly by the HTML Standard's "shared declarative refresh
/// steps" (``parse(_:page:)``), and found in an HTML answer by ``MetaRefreshScanner``.
///
/// A follower that unwraps links treats a refresh to a different link (``redirect(from:maximumDelay:)``), within a
/// delay it accepts, as a redirect hop: a long delay is a page that refreshes itself, not a bounce.
public struct Refresh: Sendable, Equatable {
    /// Where the refresh goes.
    public enum Target: Sendable, Equatable {
        /// No URL was given (`content="5"`): the page reloads itself.
        case reload
        /// The link it goes to, resolved against the page's with the link parser.
        case link(Link)
        /// A URL a browser would go to but Switchyard does not follow: not a web link (`mailto:`), or one the link
        /// parser refuses (a user name before the host). The reference as the steps gave it, and the refusal.
        case refused(reference: String, LinkError)
    }

    /// The delay in whole seconds (the digits before any `.`; a number too large for `Int` is `Int.max`).
    public var delay: Int
    /// Where it goes.
    public var target: Target

    /// Creates a refresh.
    public init(delay: Int, target: Target) {
        self.delay = delay
        self.target = target
    }

    /// The link to follow from `page`: the target when it is a link other than the page (fragments aside) and the
    /// delay is at most `maximumDelay` seconds; nil for a reload, a refused target, the page itself or a longer delay.
    public func redirect(from page: Link, maximumDelay: Int) -> Link? {
        guard delay <= maximumDelay, case .link(let link) = target else { return nil }
        return Self.withoutFragment(link.text) == Self.withoutFragment(page.text) ? nil : link
    }

    private static func withoutFragment(_ text: String) -> Substring {
        text[..<(text.firstIndex(of: "#") ?? text.endIndex)]
    }

    /// The refresh of a `Refresh` header's value, its bytes decoded one for one as Latin-1 (the HTML Standard's
    /// isomorphic decoding); nil when the steps give none.
    public static func parse(headerValue bytes: some Sequence<UInt8>, page: Link) -> Refresh? {
        var text = ""
        text.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        return parse(text, page: page)
    }

    /// The HTML Standard's shared declarative refresh steps on `input` (a header's value or a meta element's
    /// `content`), for a document at `page`; nil when they return early (no refresh: the input does not start with a
    /// delay, has something other than `;`, `,` or white space after it, or a URL that cannot be parsed, or a
    /// `javascript:` URL). Such a refresh does not count: a later one still can.
    public static func parse(_ input: some StringProtocol, page: Link) -> Refresh? {
        let scalars = Array(input.unicodeScalars)
        var position = 0
        func skipWhitespace() {
            while position < scalars.count, isASCIIWhitespace(scalars[position]) { position += 1 }
        }
        // 1–3: white space, then the delay's digits (or a '.').
        skipWhitespace()
        let digitsStart = position
        while position < scalars.count, isDigit(scalars[position]) { position += 1 }
        let digits = scalars[digitsStart..<position]
        if digits.isEmpty {
            guard position < scalars.count, scalars[position] == "." else { return nil }
        }
        let delay = digits.reduce(0) { total, digit in
            let (times, overflow) = total.multipliedReportingOverflow(by: 10)
            let (sum, overflowAgain) = times.addingReportingOverflow(Int(digit.value - 48))
            return overflow || overflowAgain || total == Int.max ? Int.max : sum
        }
        // 4: the fraction is ignored.
        while position < scalars.count, isDigit(scalars[position]) || scalars[position] == "." { position += 1 }
        // 6: a separator.
        if position < scalars.count {
            let character = scalars[position]
            guard character == ";" || character == "," || isASCIIWhitespace(character) else { return nil }
            skipWhitespace()
            if position < scalars.count, scalars[position] == ";" || scalars[position] == "," { position += 1 }
            skipWhitespace()
        }
        // 5, 8: no URL part is the document itself.
        guard position < scalars.count else { return Refresh(delay: delay, target: .reload) }
        // 7: an optional `url =`, optional quotes.
        let urlStart = position
        var reference = scalars[urlStart...]
        func rest() -> ArraySlice<Unicode.Scalar> { scalars[position...] }
        skipQuotes: do {
            guard lowered(scalars[position]) == "u" else { break skipQuotes }
            position += 1
            guard position < scalars.count, lowered(scalars[position]) == "r" else {
                return resolve(reference, page, delay)
            }
            position += 1
            guard position < scalars.count, lowered(scalars[position]) == "l" else {
                return resolve(reference, page, delay)
            }
            position += 1
            skipWhitespace()
            guard position < scalars.count, scalars[position] == "=" else { return resolve(reference, page, delay) }
            position += 1
            skipWhitespace()
        }
        var quote: Unicode.Scalar?
        if position < scalars.count, scalars[position] == "'" || scalars[position] == "\"" {
            quote = scalars[position]
            position += 1
        }
        reference = rest()
        if let quote, let end = reference.firstIndex(of: quote) { reference = reference[..<end] }
        return resolve(reference, page, delay)
    }

    /// Step 7.8: the reference parsed relative to the page; nil when that fails or gives a `javascript:` URL.
    private static func resolve(_ reference: ArraySlice<Unicode.Scalar>, _ page: Link, _ delay: Int) -> Refresh? {
        var text = ""
        text.unicodeScalars.append(contentsOf: reference)
        switch RefreshReference.resolve(text, against: page) {
        case .failed: return nil
        case .link(let link): return Refresh(delay: delay, target: .link(link))
        case .refused(let reference, let error):
            return Refresh(delay: delay, target: .refused(reference: reference, error))
        }
    }

    /// `text` with ASCII upper-case letters lower-cased and nothing else changed: the HTML and URL Standards' "ASCII
    /// case-insensitive" comparisons (Unicode lower-casing maps other characters too, such as the Kelvin sign to `k`).
    static func asciiLowercased(_ text: some StringProtocol) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map(lowered)))
    }

    static func isASCIIWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\u{0C}" || scalar == "\r"
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0"..."9").contains(scalar)
    }

    static func lowered(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
    }
}
