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
enum CharacterClass: UInt32, Sendable, CaseIterable {
    case alpha, upper, lower, alnum, digit, xdigit

    /// The class a variable names (`alpha`, …), or nil.
    init?(name: String) {
        switch name {
        case "alpha": self = .alpha
        case "upper": self = .upper
        case "lower": self = .lower
        case "alnum": self = .alnum
        case "digit": self = .digit
        case "xdigit": self = .xdigit
        default: return nil
        }
    }

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
final class PatternChoice: Sendable, Equatable {
    /// Literal alternatives packed by ``PatternChoice/key(_:)``, indexed by length (0 to 3).
    let packed: [Set<UInt64>]
    /// The lengths in ``packed``, shortest first.
    let packedLengths: [Int]
    /// Longer alternatives made only of scalars.
    let literals: [[UInt32]]
    /// Alternatives with `*` or `?`.
    let patterns: [[PatternElement]]
    let minimumLength: Int
    let maximumLength: Int?

    init(_ alternatives: [[PatternElement]]) {
        var packed = [Set<UInt64>](repeating: [], count: 4)
        var patterns: [[PatternElement]] = []
        var literals: [[UInt32]] = []
        var minimum = Int.max
        var maximum: Int? = 0
        for alternative in alternatives {
            var scalars: [UInt32] = []
            for case .scalar(let scalar) in alternative { scalars.append(scalar) }
            if scalars.count == alternative.count && scalars.count <= 3 {
                packed[scalars.count].insert(Self.key(scalars[...]))
            } else if scalars.count == alternative.count {
                if !literals.contains(scalars) { literals.append(scalars) }
            } else if !patterns.contains(alternative) {
                patterns.append(alternative)
            }
            let length = PatternSequence.length(of: alternative)
            minimum = min(minimum, length.minimum)
            if let most = maximum { maximum = length.maximum.map { max(most, $0) } }
        }
        self.packed = packed
        packedLengths = packed.indices.filter { !packed[$0].isEmpty }
        self.patterns = patterns
        self.literals = literals
        minimumLength = alternatives.isEmpty ? 0 : minimum
        maximumLength = alternatives.isEmpty ? 0 : maximum
    }

    /// Up to three scalars (21 bits each) and the length, in one integer.
    static func key(_ scalars: ArraySlice<UInt32>) -> UInt64 {
        var key = UInt64(scalars.count)
        for scalar in scalars { key = key << 21 | UInt64(scalar & 0x1F_FFFF) }
        return key
    }

    static func == (lhs: PatternChoice, rhs: PatternChoice) -> Bool {
        lhs.packed == rhs.packed && lhs.literals == rhs.literals && lhs.patterns == rhs.patterns
    }

    /// Whether the choice has no alternative at all (an empty list: it matches nothing).
    var isEmpty: Bool { packedLengths.isEmpty && literals.isEmpty && patterns.isEmpty }
}

/// One element of a segment whose every element takes exactly one scalar, in a form copied without reference
/// counting: a scalar, any scalar, or a built-in class.
struct FixedStep: Sendable {
    enum Kind: UInt8, Sendable { case scalar, any, character }
    let kind: Kind
    /// The scalar, or the class's raw value.
    let value: UInt32

    /// The step of a one-scalar element; nil for `*` and variables with alternatives.
    init?(_ element: PatternElement) {
        switch element {
        case .scalar(let scalar): (kind, value) = (.scalar, scalar)
        case .any: (kind, value) = (.any, 0)
        case .character(let characterClass): (kind, value) = (.character, characterClass.rawValue)
        case .star, .choice: return nil
        }
    }
}

/// Helpers over a run of elements.
enum PatternSequence {
    /// Whether the elements can match the empty text.
    static func matchesEmpty(_ elements: some Collection<PatternElement>) -> Bool {
        elements.allSatisfy { element in
            switch element {
            case .star: true
            case .scalar, .any, .character: false
            case .choice(let choice): !choice.packed[0].isEmpty || choice.patterns.contains { matchesEmpty($0) }
            }
        }
    }

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
