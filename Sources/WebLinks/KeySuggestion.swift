/// Suggests the known key closest to a misspelt one ("test" → "tests"), for unknown-key warnings: the one did-you-mean
/// helper of every document format (the manifest and user layer in LinkRules, the wrapper catalog in LinkWrappers).
package enum KeySuggestion {
    /// The closest known key within an edit distance of 2 (or 1 for short keys), if any.
    package static func closest(to key: String, among known: Set<String>) -> String? {
        let limit = key.count <= 4 ? 1 : 2
        var best: (key: String, distance: Int)?
        for candidate in known.sorted() {
            let distance = editDistance(key.lowercased(), candidate.lowercased())
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.key
    }

    /// Levenshtein distance between two strings.
    package static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs.unicodeScalars)
        let b = Array(rhs.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
