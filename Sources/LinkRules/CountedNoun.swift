extension String.StringInterpolation {
    /// A count and its noun, singular for 1 and plural otherwise: `"\(errors, "error")"` is `1 error` or `2 errors`.
    /// `plural` is for nouns that do not take an s (`"\(count, "entry", plural: "entries")"`). Every count a person
    /// reads goes through here, so no text says `1 errors`.
    package mutating func appendInterpolation(_ count: Int, _ noun: String, plural: String? = nil) {
        appendLiteral("\(count) " + (count == 1 ? noun : plural ?? noun + "s"))
    }
}
