import WebLinks

/// One JSON object of a device file and where it is: typed members, each wrong type refused with its JSON pointer, a
/// missing boolean true and a missing list empty, unknown members ignored. The last of repeated keys counts, as
/// Foundation's reader (and so the platforms' tools) keeps it.
struct DeviceObject {
    let node: JSONNode
    let pointer: JSONPointer

    /// `node` at `pointer`, which must be an object.
    init(_ node: JSONNode, at pointer: JSONPointer, what: String) throws(PredictionError) {
        guard node.members != nil else {
            throw PredictionError(
                "\(what) is an object, not \(node.typeDescription)",
                at: pointer,
                position: node.position
            )
        }
        self.node = node
        self.pointer = pointer
    }

    /// The member named `key`, with its pointer (nil when absent).
    func member(_ key: String) -> (node: JSONNode, pointer: JSONPointer)? {
        guard let value = node.members?.last(where: { $0.key == key })?.value else { return nil }
        return (value, pointer.appending(key))
    }

    func error(_ message: String, _ member: (node: JSONNode, pointer: JSONPointer)) -> PredictionError {
        PredictionError(message, at: member.pointer, position: member.node.position)
    }

    func wrongType(_ expected: String, _ member: (node: JSONNode, pointer: JSONPointer)) -> PredictionError {
        error("expected \(expected), found \(member.node.typeDescription)", member)
    }

    /// A boolean member; true when absent.
    func flag(_ key: String) throws(PredictionError) -> Bool {
        guard let member = member(key) else { return true }
        guard case .bool(let value) = member.node.value else { throw wrongType("true or false", member) }
        return value
    }

    /// A string member; nil when absent.
    func string(_ key: String) throws(PredictionError) -> String? {
        guard let member = member(key) else { return nil }
        guard let text = member.node.stringValue else { throw wrongType("a string", member) }
        return text
    }

    /// A string member that must be there and not empty.
    func requiredString(_ key: String, what: String) throws(PredictionError) -> String {
        guard let member = member(key) else {
            throw PredictionError("\(what) has no \"\(key)\"", at: pointer, position: node.position)
        }
        guard let text = member.node.stringValue else { throw wrongType("a string", member) }
        guard !text.isEmpty else { throw error("\(what)'s \"\(key)\" is empty", member) }
        return text
    }

    /// A whole-number member; nil when absent.
    func integer(_ key: String) throws(PredictionError) -> Int? {
        guard let member = member(key) else { return nil }
        guard case .number(let literal) = member.node.value else { throw wrongType("a whole number", member) }
        guard let value = Int(literal) ?? Double(literal).flatMap({ Int(exactly: $0) }) else {
            throw error("expected a whole number, found \(literal)", member)
        }
        return value
    }

    /// A list member of strings, each checked by `check` (which returns why one is refused); nil when absent.
    func strings(
        _ key: String,
        check: (String) -> String? = { _ in nil }
    ) throws(PredictionError) -> [String]? {
        guard let member = member(key) else { return nil }
        guard let elements = member.node.elements else { throw wrongType("a list", member) }
        var strings: [String] = []
        for (index, element) in elements.enumerated() {
            let item = (element, member.pointer.appending(index))
            guard let text = element.stringValue else { throw wrongType("a string", item) }
            if let problem = check(text) { throw error(problem, item) }
            strings.append(text)
        }
        return strings
    }

    /// A list member of hosts (``HostName/isWellFormed(_:)``); nil when absent.
    func hosts(_ key: String) throws(PredictionError) -> [String]? {
        try strings(key) { text in
            HostName.isWellFormed(text)
                ? nil
                : "\"\(text)\" is not a host: write a name such as a.example or *.a.example, without scheme, port or path"
        }
    }

    /// A list member of objects, each read by `read`; empty when absent.
    func objects<Element>(
        _ key: String,
        what: String,
        _ read: (DeviceObject) throws(PredictionError) -> Element
    ) throws(PredictionError) -> [Element] {
        guard let member = member(key) else { return [] }
        guard let elements = member.node.elements else { throw wrongType("a list", member) }
        var result: [Element] = []
        for (index, element) in elements.enumerated() {
            result.append(try read(try DeviceObject(element, at: member.pointer.appending(index), what: what)))
        }
        return result
    }
}
