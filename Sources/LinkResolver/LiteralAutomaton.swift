/// An Aho–Corasick automaton over lower-cased ASCII literals: one pass over a link finds every rule whose required
/// literal occurs in it.
///
/// Transitions are a dense table over a compact alphabet (the bytes the literals use, plus one class for every
/// other byte), so each input byte costs one table read.
struct LiteralAutomaton: Sendable {
    private let alphabetClass: [UInt8]  // byte → class; 0 is "not in any literal"
    private let classCount: Int
    private let transitions: [Int32]  // state * classCount + class → state
    private let outputStart: [Int32]  // per state, range into outputs
    private let outputs: [Int32]  // rule indexes
    private let ruleCount: Int  // 1 + the largest rule index

    /// Builds the automaton; `literals[i]` are the alternatives for rule `ruleIndexes[i]`.
    init(rules: [(index: Int, literals: [String])]) {
        var classes = [UInt8](repeating: 0, count: 256)
        var nextClass: UInt8 = 1
        for rule in rules {
            for literal in rule.literals {
                for byte in literal.utf8 where classes[Int(byte)] == 0 {
                    classes[Int(byte)] = nextClass
                    nextClass += 1
                }
            }
        }
        // Fold ASCII upper case onto lower case so the scan needs no separate lower-casing pass.
        for upper in UInt8(ascii: "A")...UInt8(ascii: "Z") { classes[Int(upper)] = classes[Int(upper + 0x20)] }
        let classCount = Int(nextClass)

        // Trie.
        var goto: [[Int32]] = [[Int32](repeating: -1, count: classCount)]
        var stateOutputs: [[Int32]] = [[]]
        for rule in rules {
            for literal in rule.literals {
                var state = 0
                for byte in literal.utf8 {
                    let symbol = Int(classes[Int(byte)])
                    if goto[state][symbol] < 0 {
                        goto[state][symbol] = Int32(goto.count)
                        goto.append([Int32](repeating: -1, count: classCount))
                        stateOutputs.append([])
                    }
                    state = Int(goto[state][symbol])
                }
                stateOutputs[state].append(Int32(rule.index))
            }
        }
        // Failure links, breadth first, turning the trie into a complete DFA.
        var failure = [Int](repeating: 0, count: goto.count)
        var queue: [Int] = []
        for symbol in 0..<classCount {
            let next = goto[0][symbol]
            if next < 0 {
                goto[0][symbol] = 0
            } else {
                failure[Int(next)] = 0
                queue.append(Int(next))
            }
        }
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            stateOutputs[state] += stateOutputs[failure[state]]
            for symbol in 0..<classCount {
                let next = goto[state][symbol]
                if next < 0 {
                    goto[state][symbol] = goto[failure[state]][symbol]
                } else {
                    failure[Int(next)] = Int(goto[failure[state]][symbol])
                    queue.append(Int(next))
                }
            }
        }
        var outputStart: [Int32] = []
        var outputs: [Int32] = []
        for list in stateOutputs {
            outputStart.append(Int32(outputs.count))
            outputs += Set(list).sorted()
        }
        outputStart.append(Int32(outputs.count))
        self.alphabetClass = classes
        self.classCount = classCount
        self.transitions = goto.flatMap { $0 }
        self.outputStart = outputStart
        self.outputs = outputs
        self.ruleCount = (rules.map(\.index).max() ?? -1) + 1
    }

    /// The rules with a literal in `bytes` followed by the end marker (byte 0), each once, in the order found.
    func scan(_ bytes: [UInt8]) -> [Int] {
        var found: [Int] = []
        // A bit per rule, so that a rule whose literals occur several times is listed once.
        var seen = [UInt64](repeating: 0, count: (ruleCount + 63) / 64 + 1)
        seen.withUnsafeMutableBufferPointer { seen in
        transitions.withUnsafeBufferPointer { transitions in
            alphabetClass.withUnsafeBufferPointer { alphabet in
                outputStart.withUnsafeBufferPointer { starts in
                    outputs.withUnsafeBufferPointer { outputs in
                        var state = 0
                        func step(_ byte: UInt8) {
                            state = Int(transitions[state &* classCount &+ Int(alphabet[Int(byte)])])
                            let start = Int(starts[state]), end = Int(starts[state &+ 1])
                            if start != end {
                                for position in start..<end {
                                    let rule = Int(outputs[position])
                                    let bit: UInt64 = 1 << UInt64(rule & 63)
                                    if seen[rule >> 6] & bit == 0 {
                                        seen[rule >> 6] |= bit
                                        found.append(rule)
                                    }
                                }
                            }
                        }
                        bytes.withUnsafeBufferPointer { input in
                            for byte in input { step(byte) }
                        }
                        step(RequiredLiterals.endOfText)
                    }
                }
            }
        }
        }
        return found
    }
}
