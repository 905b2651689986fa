/// `PatternMatcher`'s advanced glob: parsed into tokens as `parseAndVerifyAdvancedPattern` does, matched as
/// `matchAdvancedPattern` does (each token takes as many characters as it can, with no backtracking).
enum AdvancedPattern {
    static let setStart = -1
    static let inverseSetStart = -2
    static let setStop = -3
    static let any = -4
    static let rangeStart = -5
    static let rangeStop = -6
    static let zeroOrMore = -7
    static let oneOrMore = -8
    /// Android's limit on the parsed pattern's size.
    static let maximumTokens = 2048

    private static func isModifier(_ token: Int) -> Bool {
        token == zeroOrMore || token == oneOrMore || token == rangeStop || token == rangeStart
    }

    static func parse(_ pattern: [UInt16]) throws(AdvancedPatternError) -> [Int] {
        func fail(_ reason: String) -> AdvancedPatternError { AdvancedPatternError(description: reason) }
        var tokens: [Int] = []
        var ip = 0
        var inSet = false
        var inRange = false
        var inCharacterClass = false
        while ip < pattern.count {
            guard tokens.count <= maximumTokens - 3 else { throw fail("the pattern is too large") }
            var character = Int(pattern[ip])
            var add = false
            switch UInt8(truncatingIfNeeded: character) {
            case _ where character > 0x7F:
                add = true
            case UInt8(ascii: "["):
                if inSet {
                    add = true
                } else {
                    if ip + 1 < pattern.count && pattern[ip + 1] == UInt16(UInt8(ascii: "^")) {
                        tokens.append(inverseSetStart)
                        ip += 1
                    } else {
                        tokens.append(setStart)
                    }
                    ip += 1
                    inSet = true
                    continue
                }
            case UInt8(ascii: "]"):
                if !inSet {
                    add = true
                } else {
                    if let last = tokens.last, last == setStart || last == inverseSetStart {
                        throw fail("a set must have characters in it")
                    }
                    tokens.append(setStop)
                    inSet = false
                    inCharacterClass = false
                }
            case UInt8(ascii: "{"):
                if !inSet {
                    guard let last = tokens.last, !isModifier(last) else {
                        throw fail("a modifier must follow a token")
                    }
                    tokens.append(rangeStart)
                    ip += 1
                    inRange = true
                }
            case UInt8(ascii: "}"):
                if inRange {
                    tokens.append(rangeStop)
                    inRange = false
                }
            case UInt8(ascii: "*"), UInt8(ascii: "+"):
                if !inSet {
                    guard let last = tokens.last, !isModifier(last) else {
                        throw fail("a modifier must follow a token")
                    }
                    tokens.append(character == Int(UInt8(ascii: "*")) ? zeroOrMore : oneOrMore)
                }
            case UInt8(ascii: "."):
                if !inSet { tokens.append(any) }
            case UInt8(ascii: "\\"):
                guard ip + 1 < pattern.count else { throw fail("an escape at the end of the pattern") }
                ip += 1
                character = Int(pattern[ip])
                add = true
            default:
                add = true
            }
            if inSet {
                if inCharacterClass {
                    tokens.append(character)
                    inCharacterClass = false
                } else if ip + 2 < pattern.count && pattern[ip + 1] == UInt16(UInt8(ascii: "-"))
                    && pattern[ip + 2] != UInt16(UInt8(ascii: "]"))
                {
                    inCharacterClass = true
                    tokens.append(character)
                    ip += 1
                } else {
                    tokens.append(character)
                    tokens.append(character)
                }
            } else if inRange {
                guard let end = pattern[ip...].firstIndex(of: UInt16(UInt8(ascii: "}"))) else {
                    throw fail("a range is not ended with '}'")
                }
                let text = String(decoding: pattern[ip..<end], as: UTF16.self)
                let bounds = text.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
                guard let minimum = Int(bounds[0]) else { throw fail("a range's numbers are not numbers") }
                var maximum = minimum
                if bounds.count == 2 {
                    if bounds[1].isEmpty {
                        maximum = Int(Int32.max)
                    } else {
                        guard let value = Int(bounds[1]) else { throw fail("a range's numbers are not numbers") }
                        maximum = value
                    }
                }
                guard minimum <= maximum else {
                    throw fail("a range's minimum is greater than its maximum")
                }
                tokens.append(minimum)
                tokens.append(maximum)
                ip = end
                continue
            } else if add {
                tokens.append(character)
            }
            ip += 1
        }
        guard !inSet else { throw fail("a set is not terminated") }
        return tokens
    }

    static func matches(_ tokens: [Int], _ match: [UInt16]) -> Bool {
        var ip = 0
        var im = 0
        while ip < tokens.count {
            let kind: Int
            var start = ip
            var stop = ip
            switch tokens[ip] {
            case any:
                kind = any
                ip += 1
            case setStart, inverseSetStart:
                kind = tokens[ip]
                start = ip + 1
                ip += 1
                while ip < tokens.count && tokens[ip] != setStop { ip += 1 }
                stop = ip - 1
                ip += 1
            default:
                kind = 0
                start = ip
                ip += 1
            }
            var minimum = 1
            var maximum = 1
            if ip < tokens.count {
                switch tokens[ip] {
                case zeroOrMore:
                    (minimum, maximum) = (0, Int.max)
                    ip += 1
                case oneOrMore:
                    (minimum, maximum) = (1, Int.max)
                    ip += 1
                case rangeStart:
                    guard ip + 2 < tokens.count else { return false }
                    (minimum, maximum) = (tokens[ip + 1], tokens[ip + 2])
                    ip += 4
                default:
                    break
                }
            }
            guard minimum <= maximum else { return false }
            var matched = 0
            while matched < maximum && im + matched < match.count
                && matchesOne(Int(match[im + matched]), kind: kind, tokens: tokens, start: start, stop: stop)
            {
                matched += 1
            }
            guard matched >= minimum else { return false }
            im += matched
        }
        return im >= match.count
    }

    private static func matchesOne(_ character: Int, kind: Int, tokens: [Int], start: Int, stop: Int) -> Bool {
        switch kind {
        case any:
            return true
        case setStart, inverseSetStart:
            var index = start
            var inside = false
            while index < stop {
                if character >= tokens[index] && character <= tokens[index + 1] {
                    inside = true
                    break
                }
                index += 2
            }
            return inside == (kind == setStart)
        default:
            return character == tokens[start]
        }
    }
}
