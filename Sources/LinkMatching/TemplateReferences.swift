/// A replacement template (`format`) read the way Foundation's `NSRegularExpression` reads it, the one reader of
/// templates: the compiled renderer and the load-time checks both take their parts from here.
///
/// Foundation does not use ICU's rule for group numbers. After a `$` it reads a fixed number of digits, as many as
/// the regex's largest range number has (one up to nine groups, two from ten): with one group `$01` is group 0
/// followed by the text `1`, with twelve groups `$12` is group 12 and `$123` is group 12 followed by `3`. Fewer
/// digits are read when a non-digit follows. A group the regex lacks renders as "". `\x` is a literal `x` (a
/// trailing `\` renders as nothing), and a `$` not followed by a digit is a literal `$`. (swift-corelibs-foundation's
/// `replacementString(for:in:offset:template:)`; the template fuzzer compares the compiled renderer with it.)
struct TemplateReferences {
    /// A group reference.
    struct Reference: Equatable {
        /// The group Foundation uses.
        var group: Int
        /// The digits it read for it.
        var digits: String
        /// Digits right after it that it did not read (they are literal text).
        var followingDigits: String
        /// Whether digits follow that a reader could take for part of the group number.
        var isAmbiguous: Bool { !followingDigits.isEmpty }
    }

    /// One part of a template.
    enum Token: Equatable {
        case text(String)
        case group(Reference)
    }

    /// The template's parts in order; adjacent text is one part.
    static func tokens(in template: String, groupCount: Int) -> [Token] {
        // Foundation counts ranges (the groups and the whole match) and reads that number's digit count.
        var maximumDigits = 1
        var magnitude = 10
        while magnitude < groupCount + 1 {
            maximumDigits += 1
            magnitude *= 10
        }
        var tokens: [Token] = []
        var text = String.UnicodeScalarView()
        let scalars = Array(template.unicodeScalars)
        var index = 0
        func isDigit(_ at: Int) -> Bool { at < scalars.count && ("0"..."9").contains(scalars[at]) }
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\" {
                if index + 1 < scalars.count { text.append(scalars[index + 1]) }
                index += 2
                continue
            }
            guard scalar == "$", isDigit(index + 1) else {
                text.append(scalar)
                index += 1
                continue
            }
            var end = index + 1
            while end < index + 1 + maximumDigits, isDigit(end) { end += 1 }
            var following = end
            while isDigit(following) { following += 1 }
            let digits = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
            if !text.isEmpty {
                tokens.append(.text(String(text)))
                text = String.UnicodeScalarView()
            }
            tokens.append(
                .group(
                    Reference(
                        group: Int(digits) ?? 0,
                        digits: digits,
                        followingDigits: String(String.UnicodeScalarView(scalars[end..<following]))
                    )
                )
            )
            index = end
        }
        if !text.isEmpty { tokens.append(.text(String(text))) }
        return tokens
    }

    /// The template's group references in order.
    static func references(in template: String, groupCount: Int) -> [Reference] {
        tokens(in: template, groupCount: groupCount).compactMap { token in
            if case .group(let reference) = token { reference } else { nil }
        }
    }
}
