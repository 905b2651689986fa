/// One step of a compiled AASA pattern, over Unicode scalars (`?` is one character, not one byte).
enum PatternElement: Sendable, Equatable {
    /// This scalar (already case-folded when the pattern is not case-sensitive).
    case scalar(UInt32)
    /// `?`: any one scalar.
    case any
    /// `*`: zero or more scalars.
    case star
    /// A built-in one-character variable: `$(alpha)`, `$(digit)`, …
    case character(CharacterClass)
    /// A variable with alternatives: `$(region)`, `$(lang)`, or one of the file's own.
    case choice(PatternChoice)

    /// How many scalars the element takes: (fewest, most; nil when unbounded).
    var length: (minimum: Int, maximum: Int?) {
        switch self {
        case .scalar, .any, .character: (1, 1)
        case .star: (0, nil)
        case .choice(let choice): (choice.minimumLength, choice.maximumLength)
        }
    }
}

/// The built-in one-character variables.
enum CharacterClass: String, Sendable, CaseIterable {
    case alpha, upper, lower, alnum, digit, xdigit

    /// Whether `scalar` is in the class. Letters are Unicode letters (a percent-decoded path may hold `é`), digits are
    /// ASCII. When the pattern ignores case the text is folded to lower case, so `upper` and `lower` read as `alpha`.
    func contains(_ scalar: UInt32, ignoringCase: Bool) -> Bool {
        if scalar < 0x80 {
            let isUpper = scalar >= 0x41 && scalar <= 0x5A
            let isLower = scalar >= 0x61 && scalar <= 0x7A
            let isDigit = scalar >= 0x30 && scalar <= 0x39
            switch self {
            case .alpha: return isUpper || isLower
            case .upper: return isUpper || (ignoringCase && isLower)
            case .lower: return isLower || (ignoringCase && isUpper)
            case .alnum: return isUpper || isLower || isDigit
            case .digit: return isDigit
            case .xdigit: return isDigit || (scalar >= 0x41 && scalar <= 0x46) || (scalar >= 0x61 && scalar <= 0x66)
            }
        }
        guard let unicode = Unicode.Scalar(scalar) else { return false }
        let properties = unicode.properties
        switch self {
        case .alpha, .alnum: return properties.isAlphabetic
        case .upper: return properties.isUppercase || (ignoringCase && properties.isLowercase)
        case .lower: return properties.isLowercase || (ignoringCase && properties.isUppercase)
        case .digit, .xdigit: return false
        }
    }
}

/// The alternatives of a variable. Alternatives made only of scalars and at most three long (every ISO code) are
/// found by one hash look-up per length; the others (a file's own values with `*` or `?`) are tried in turn.
struct PatternChoice: Sendable, Equatable {
    /// Literal alternatives packed as ``PatternChoice/key(_:_:_:)``, by length.
    let packed: [Int: Set<UInt64>]
    /// The lengths in ``packed``, shortest first.
    let packedLengths: [Int]
    /// Alternatives that are not packed.
    let patterns: [[PatternElement]]
    let minimumLength: Int
    let maximumLength: Int?

    init(_ alternatives: [[PatternElement]]) {
        var packed: [Int: Set<UInt64>] = [:]
        var patterns: [[PatternElement]] = []
        var minimum = Int.max
        var maximum: Int? = 0
        for alternative in alternatives {
            var scalars: [UInt32] = []
            for case .scalar(let scalar) in alternative { scalars.append(scalar) }
            if scalars.count == alternative.count && scalars.count <= 3 {
                packed[scalars.count, default: []].insert(Self.key(scalars[...]))
            } else if !patterns.contains(alternative) {
                patterns.append(alternative)
            }
            let length = PatternSequence.length(of: alternative)
            minimum = min(minimum, length.minimum)
            if let most = maximum { maximum = length.maximum.map { max(most, $0) } }
        }
        self.packed = packed
        packedLengths = packed.keys.sorted()
        self.patterns = patterns
        minimumLength = alternatives.isEmpty ? 0 : minimum
        maximumLength = alternatives.isEmpty ? 0 : maximum
    }

    /// Up to three scalars (21 bits each) and the length, in one integer.
    static func key(_ scalars: ArraySlice<UInt32>) -> UInt64 {
        var key = UInt64(scalars.count)
        for scalar in scalars { key = key << 21 | UInt64(scalar & 0x1F_FFFF) }
        return key
    }

    /// Whether the choice has no alternative at all (an empty list: it matches nothing).
    var isEmpty: Bool { packed.isEmpty && patterns.isEmpty }
}

/// Helpers over a run of elements.
enum PatternSequence {
    /// The fewest and most scalars a run of elements takes (most: nil when unbounded).
    static func length(of elements: some Collection<PatternElement>) -> (minimum: Int, maximum: Int?) {
        var minimum = 0
        var maximum: Int? = 0
        for element in elements {
            let length = element.length
            minimum += length.minimum
            if let most = maximum, let add = length.maximum { maximum = most + add } else { maximum = nil }
        }
        return (minimum, maximum)
    }
}
