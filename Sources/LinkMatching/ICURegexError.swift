/// ICU's regex compile errors (`U_REGEX_*` in utypes.h), by name and in words, for messages about a rule's regex.
enum ICURegexError {
    /// The first regex error code, `U_REGEX_ERROR_START`.
    static let first: Int32 = 0x10300

    /// Each code from ``first`` on: its ICU name and what it means.
    static let descriptions: [(name: String, words: String)] = [
        ("U_REGEX_INTERNAL_ERROR", "an internal ICU error"),
        ("U_REGEX_RULE_SYNTAX", "a syntax error"),
        ("U_REGEX_INVALID_STATE", "an invalid state"),
        ("U_REGEX_BAD_ESCAPE_SEQUENCE", "an unknown backslash escape"),
        ("U_REGEX_PROPERTY_SYNTAX", "an invalid Unicode property"),
        ("U_REGEX_UNIMPLEMENTED", "a feature ICU does not implement"),
        ("U_REGEX_MISMATCHED_PAREN", "unbalanced parentheses, a group left open or closed twice"),
        ("U_REGEX_NUMBER_TOO_BIG", "a number too large"),
        ("U_REGEX_BAD_INTERVAL", "a malformed {min,max} repetition"),
        ("U_REGEX_MAX_LT_MIN", "a {min,max} repetition whose max is less than its min"),
        ("U_REGEX_INVALID_BACK_REF", "a back-reference to a group that does not exist"),
        ("U_REGEX_INVALID_FLAG", "an invalid mode flag"),
        ("U_REGEX_LOOK_BEHIND_LIMIT", "a look-behind without a bounded length"),
        ("U_REGEX_SET_CONTAINS_STRING", "a set containing a string"),
        ("U_REGEX_OCTAL_TOO_BIG", "an octal constant above 0377"),
        ("U_REGEX_MISSING_CLOSE_BRACKET", "an unclosed [ bracket expression"),
        ("U_REGEX_INVALID_RANGE", "a character range [x-y] whose x is after y"),
        ("U_REGEX_STACK_OVERFLOW", "a backtracking stack overflow"),
        ("U_REGEX_TIME_OUT", "a time out"),
        ("U_REGEX_STOPPED_BY_CALLER", "a stop"),
        ("U_REGEX_PATTERN_TOO_BIG", "a pattern too large or complex"),
        ("U_REGEX_INVALID_CAPTURE_GROUP_NAME", "an invalid capture group name"),
    ]

    /// The name and words for `status`; an unknown code is named by its number.
    static func describe(_ status: Int32) -> (name: String, words: String) {
        let index = Int(status - first)
        guard descriptions.indices.contains(index) else { return ("ICU error \(status)", "an error") }
        return descriptions[index]
    }
}
