/// An Aho–Corasick automaton over lower-cased ASCII literals: one pass over a link finds every rule whose required
/// literal occurs in it.
///
/// Transitions are a dense table over a compact alphabet (the bytes the literals use, plus one class for every
/// other byte), so each input byte costs one table read.
struct LiteralAutomaton: Sendable {
    private let alphabetClass: [UInt8]  // byte → class; 0 is "not in any literal"
    private let classCount: Int
    /// state * classCount + class → state, the top bit set when the target state has outputs.
    private enum Table: Sendable {
        case narrow([UInt16])
        case wide([UInt32])
    }
    private let transitions: Table
    private let outputStart: [Int32]  // per state, range into outputs
    private let outputs: [Int32]  // rule indexes
    private let ruleCount: Int  // 1 + the largest rule index

    /// The number of states.
    var stateCount: Int { outputStart.count - 1 }
    /// The size of the transition table.
    var tableBytes: Int {
        switch transitions {
        case .narrow(let table): table.count * 2
        case .wide(let table): table.count * 4
        }
    }

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

        // Trie, in one flat table (a row of `classCount` entries per state) that becomes the DFA in place.
        var goto = [Int32](repeating: -1, count: classCount)
        var stateOutputs: [[Int32]] = [[]]
        for rule in rules {
            for literal in rule.literals {
                var state = 0
                for byte in literal.utf8 {
                    let cell = state * classCount + Int(classes[Int(byte)])
                    if goto[cell] < 0 {
                        goto[cell] = Int32(stateOutputs.count)
                        goto.append(contentsOf: repeatElement(-1, count: classCount))
                        stateOutputs.append([])
                    }
                    state = Int(goto[cell])
                }
                stateOutputs[state].append(Int32(rule.index))
            }
        }
        // Failure links, breadth first, turning the trie into a complete DFA.
        var failure = [Int](repeating: 0, count: stateOutputs.count)
        var queue: [Int] = []
        queue.reserveCapacity(stateOutputs.count)
        for symbol in 0..<classCount {
            let next = goto[symbol]
            if next < 0 {
                goto[symbol] = 0
            } else {
                failure[Int(next)] = 0
                queue.append(Int(next))
            }
        }
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            if !stateOutputs[failure[state]].isEmpty { stateOutputs[state] += stateOutputs[failure[state]] }
            let row = state * classCount
            let failureRow = failure[state] * classCount
            for symbol in 0..<classCount {
                let next = goto[row + symbol]
                if next < 0 {
                    goto[row + symbol] = goto[failureRow + symbol]
                } else {
                    failure[Int(next)] = Int(goto[failureRow + symbol])
                    queue.append(Int(next))
                }
            }
        }
        // Renumber the states breadth first (the failure pass's queue is that order): the states near the root, which
        // most link bytes visit, then share a few cache lines.
        let order = [0] + queue
        var newNumber = [Int](repeating: 0, count: order.count)
        for (number, old) in order.enumerated() { newNumber[old] = number }
        var outputStart: [Int32] = []
        var outputs: [Int32] = []
        for old in order {
            outputStart.append(Int32(outputs.count))
            let list = stateOutputs[old]
            outputs += list.count > 1 ? Set(list).sorted() : list
        }
        outputStart.append(Int32(outputs.count))
        // Each new state number with its output flag, as table cells hold it.
        let flaggedNumber: [UInt32] = newNumber.map { number in
            UInt32(number) | (outputStart[number] != outputStart[number + 1] ? 1 << 31 : 0)
        }
        func encode<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) -> [T] {
            let shift = 32 - T.bitWidth
            return [T](unsafeUninitializedCapacity: order.count * classCount) { table, initialized in
                goto.withUnsafeBufferPointer { goto in
                    flaggedNumber.withUnsafeBufferPointer { flagged in
                        for (number, old) in order.enumerated() {
                            for symbol in 0..<classCount {
                                let cell = flagged[Int(goto[old * classCount + symbol])]
                                // The flag moves from bit 31 to the top bit of T; the number fits below it.
                                let value = (cell & 0x7FFF_FFFF) | ((cell >> 31) << (31 - UInt32(shift)))
                                table[number * classCount + symbol] = T(truncatingIfNeeded: value)
                            }
                        }
                    }
                }
                initialized = order.count * classCount
            }
        }
        // Two bytes per cell while the state numbers fit in 15 bits (the top bit marks states with outputs).
        transitions = order.count < 1 << 15 ? .narrow(encode(UInt16.self)) : .wide(encode(UInt32.self))
        self.alphabetClass = classes
        self.classCount = classCount
        self.outputStart = outputStart
        self.outputs = outputs
        self.ruleCount = (rules.map(\.index).max() ?? -1) + 1
    }

    /// The rules with a literal in `bytes` followed by the end marker (byte 0), each once, in the order found.
    func scan(_ bytes: [UInt8]) -> [Int] {
        var found: [Int] = []
        // A bit per rule, so that a rule whose literals occur several times is listed once.
        let words = (ruleCount + 63) / 64 + 1
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: words) { seen in
            seen.initialize(repeating: 0)
            bytes.withUnsafeBufferPointer { input in
                switch transitions {
                case .narrow(let table): table.withUnsafeBufferPointer { scan(input, $0, seen, &found) }
                case .wide(let table): table.withUnsafeBufferPointer { scan(input, $0, seen, &found) }
                }
            }
        }
        return found
    }

    private func scan<T: FixedWidthInteger & UnsignedInteger>(
        _ input: UnsafeBufferPointer<UInt8>,
        _ table: UnsafeBufferPointer<T>,
        _ seen: UnsafeMutableBufferPointer<UInt64>,
        _ found: inout [Int]
    ) {
        let flag: T = 1 << (T.bitWidth - 1)
        alphabetClass.withUnsafeBufferPointer { alphabet in
            outputStart.withUnsafeBufferPointer { starts in
                outputs.withUnsafeBufferPointer { outputs in
                    var state = 0
                    @inline(__always) func step(_ byte: UInt8) {
                        let cell = table[state &* classCount &+ Int(alphabet[Int(byte)])]
                        state = Int(cell & ~flag)
                        guard cell & flag != 0 else { return }
                        for position in Int(starts[state])..<Int(starts[state &+ 1]) {
                            let rule = Int(outputs[position])
                            let bit: UInt64 = 1 << UInt64(rule & 63)
                            if seen[rule >> 6] & bit == 0 {
                                seen[rule >> 6] |= bit
                                found.append(rule)
                            }
                        }
                    }
                    for byte in input { step(byte) }
                    step(RequiredLiterals.endOfText)
                }
            }
        }
    }
}
