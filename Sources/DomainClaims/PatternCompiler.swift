import Foundation

/// Turns AASA pattern text into ``PatternElement``s: `*`, `?`, `$(name)` and everything else as itself.
///
/// There is no escape character: `$(` always begins a variable, and a `*` or `?` is always a wildcard. A variable is
/// one of the built-in ones or one of the file's `substitutionVariables`; any other name (or a `$(` never closed)
/// matches nothing, so the pattern can never match. The file's own values are compiled the same way, without
/// variables (`$` in a value is itself).
struct PatternCompiler: Sendable {
    /// The file's own variables: name → values, in file order.
    let variables: [String: [String]]
    /// Fold the pattern (and so its variables) to lower case.
    let ignoresCase: Bool

    /// The elements of `pattern`, and the names of the undefined variables it uses.
    func compile(_ pattern: String) -> (elements: [PatternElement], undefined: [String]) {
        var elements: [PatternElement] = []
        var undefined: [String] = []
        let scalars = Array(pattern.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "$" && index + 1 < scalars.count && scalars[index + 1] == "(" {
                let nameStart = index + 2
                var end = nameStart
                while end < scalars.count && scalars[end] != ")" { end += 1 }
                var name = String.UnicodeScalarView()
                name.append(contentsOf: scalars[nameStart..<min(end, scalars.count)])
                let variable = String(name)
                if end < scalars.count, let element = element(forVariable: variable) {
                    elements.append(element)
                } else {
                    undefined.append(end < scalars.count ? variable : "$(" + variable)
                    elements.append(.choice(PatternChoice([])))
                }
                index = end + 1
                continue
            }
            elements.append(Self.plain(scalar, ignoresCase: ignoresCase))
            index += 1
        }
        return (elements, undefined)
    }

    /// `*`, `?` or the scalar itself (folded when ignoring case).
    static func plain(_ scalar: Unicode.Scalar, ignoresCase: Bool) -> PatternElement {
        switch scalar {
        case "*": .star
        case "?": .any
        default: .scalar(ignoresCase ? CaseFolding.fold(scalar.value) : scalar.value)
        }
    }

    private func element(forVariable name: String) -> PatternElement? {
        if let characterClass = CharacterClass(name: name) { return .character(characterClass) }
        switch name {
        case "region": return .choice(ignoresCase ? ISOCodes.foldedRegions : ISOCodes.regions)
        case "lang": return .choice(ignoresCase ? ISOCodes.foldedLanguages : ISOCodes.languages)
        default:
            guard let values = variables[name] else { return nil }
            return .choice(
                PatternChoice(
                    values.map { value in value.unicodeScalars.map { Self.plain($0, ignoresCase: ignoresCase) } }
                )
            )
        }
    }

    /// Whether `name` is a built-in variable.
    static func isBuiltIn(_ name: String) -> Bool {
        CharacterClass(name: name) != nil || name == "region" || name == "lang"
    }
}

/// `$(region)` and `$(lang)`: Foundation's ISO region and language codes (as Apple's matcher uses them; `UK` is not a
/// region code, `GB` is), as choices of one code.
enum ISOCodes {
    static let regionCodes: [String] = Locale.Region.isoRegions.map(\.identifier)
    static let languageCodes: [String] = Locale.LanguageCode.isoLanguageCodes.map(\.identifier)

    static let regions = choice(regionCodes, folded: false)
    static let foldedRegions = choice(regionCodes, folded: true)
    static let languages = choice(languageCodes, folded: false)
    static let foldedLanguages = choice(languageCodes, folded: true)

    private static func choice(_ codes: [String], folded: Bool) -> PatternChoice {
        PatternChoice(
            codes.map { code in code.unicodeScalars.map { .scalar(folded ? CaseFolding.fold($0.value) : $0.value) } }
        )
    }
}

/// The one case folding of patterns and URL parts when `caseSensitive` is false: each scalar to its lower-case form
/// when that is one scalar (ASCII and most letters), otherwise itself.
enum CaseFolding {
    static func fold(_ scalar: UInt32) -> UInt32 {
        if scalar < 0x80 { return scalar >= 0x41 && scalar <= 0x5A ? scalar + 0x20 : scalar }
        guard let unicode = Unicode.Scalar(scalar) else { return scalar }
        let lower = unicode.properties.lowercaseMapping.unicodeScalars
        return lower.count == 1 ? (lower.first?.value ?? scalar) : scalar
    }

    static func fold(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            result.append(Unicode.Scalar(fold(scalar.value)) ?? scalar)
        }
        return String(result)
    }
}
