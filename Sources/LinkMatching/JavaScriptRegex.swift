/// Translates a JavaScript regular expression without the `u` flag (so with the web-compatibility grammar of
/// ECMAScript Annex B), as the ClearURLs add-on builds its rules (`new RegExp(source, "i")`) and as a script's guard
/// builds its test (`RegExp(source)`), to ICU syntax with the same meaning on links: the project's one reading of
/// JavaScript regular expressions, for LinkCleaning's catalog and LinkScripts' guards.
///
/// Where the two dialects differ, the JavaScript meaning is written out: `\d`, `\w`, `\s` and `\b` are ASCII (or
/// JavaScript's white-space list), `.` excludes only JavaScript's four line terminators, `$` is the end of the input
/// (ICU's `$` also matches before a final line break), `[^]` matches anything and `[]` nothing, `[`, `&` and `-` are
/// plain characters inside a class (ICU reads nested sets and set operations there), a `{` or `}` that is not a
/// quantifier is a character, identity escapes such as `\Q`, `\h`, `\z` are the letter itself, `\v` is U+000B,
/// named groups become plain groups (same numbering) and `\k<name>` a back-reference by number. What has no faithful
/// translation is refused with the reason: `\u{…}` (without the `u` flag it means `u` repeated), octal escapes,
/// inline flags `(?i)`, possessive quantifiers, lone surrogates, a back-reference to a missing group.
package enum JavaScriptRegex {
    /// Why a JavaScript regex is refused, in words.
    package struct Refusal: Error, Equatable {
        /// One sentence.
        package var reason: String
    }

    /// The ICU pattern with the same meaning as the JavaScript `source`, case-insensitive when `caseInsensitive`
    /// (the `i` flag the add-on passes everywhere).
    package static func translate(_ source: String, caseInsensitive: Bool = true) throws(Refusal) -> String {
        var translator = Translator(Array(source.unicodeScalars))
        let body = try translator.translate()
        return caseInsensitive ? "(?i)" + body : body
    }

    /// JavaScript's `\s`: white space and line terminators as ECMAScript lists them.
    static let spaceMembers =
        "\\x{9}-\\x{D}\\x{20}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}"
    static let wordMembers = "a-zA-Z0-9_"
    static let digitMembers = "0-9"
}
