/// The capture-group references in an ICU replacement template, read the way ICU reads them.
///
/// ICU takes `$` followed by the longest digit run that names an existing group (`$22` with three groups is group 2
/// then a literal `2`); `\x` is a literal `x`. A reference to a group the regex lacks silently renders as "", so
/// the resolver rejects it at load time.
struct TemplateReferences {
    /// Each reference: the group number ICU will use, and whether more digits followed that ICU did not take.
    struct Reference: Equatable {
        var group: Int
        var digits: String
        var isAmbiguous: Bool { String(group) != digits }
    }

    static func references(in template: String, groupCount: Int) -> [Reference] {
        var result: [Reference] = []
        let scalars = Array(template.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\\" {
                index += 2
                continue
            }
            guard scalar == "$" else {
                index += 1
                continue
            }
            var end = index + 1
            while end < scalars.count, ("0"..."9").contains(scalars[end]) { end += 1 }
            let digits = String(String.UnicodeScalarView(scalars[(index + 1)..<end]))
            if let first = digits.first, let firstValue = Int(String(first)) {
                // ICU: the first digit always counts; further digits while the number still names a group.
                var group = firstValue
                for digit in digits.dropFirst() {
                    guard let value = Int(String(digit)), group * 10 + value <= groupCount else { break }
                    group = group * 10 + value
                }
                result.append(Reference(group: group, digits: digits))
            }
            index = max(end, index + 1)
        }
        return result
    }
}
