import LinkRules

/// Small tree edits shared by the manifest rewriting tools. They keep member order (redirect rules apply in file
/// order) and never touch values they do not name.
extension JSONNode {
    /// For an object: the members transformed (nil drops one); other values unchanged.
    func mapMembers(_ transform: (JSONMember) -> JSONMember?) -> JSONNode {
        guard let members else { return self }
        return JSONNode(.object(members.compactMap(transform)), at: position)
    }

    /// For an array: the elements transformed with their index (nil drops one); other values unchanged.
    func mapElements(_ transform: (Int, JSONNode) -> JSONNode?) -> JSONNode {
        guard let elements else { return self }
        return JSONNode(.array(elements.enumerated().compactMap { transform($0.offset, $0.element) }), at: position)
    }

    /// For an object: the value of `key` replaced by `transform` (absent keys stay absent).
    func updating(_ key: String, _ transform: (JSONNode) -> JSONNode) -> JSONNode {
        mapMembers {
            $0.key == key ? JSONMember(key: $0.key, keyPosition: $0.keyPosition, value: transform($0.value)) : $0
        }
    }

    /// For an object: each key renamed by `names` (keys not in it unchanged), order kept.
    func renamingKeys(_ names: [String: String]) -> JSONNode {
        mapMembers { member in
            guard let newName = names[member.key] else { return member }
            return JSONMember(key: newName, keyPosition: member.keyPosition, value: member.value)
        }
    }

    /// For an object: only the members whose key is in `keys`.
    func keeping(_ keys: Set<String>) -> JSONNode {
        mapMembers { keys.contains($0.key) ? $0 : nil }
    }

    /// For an object: without the members whose key is in `keys`.
    func removing(_ keys: Set<String>) -> JSONNode {
        mapMembers { keys.contains($0.key) ? nil : $0 }
    }

    /// The same node with another value (position kept).
    func with(_ value: Value) -> JSONNode { JSONNode(value, at: position) }
}

extension Dictionary where Key == String, Value == String {
    /// The inverse mapping.
    var inverted: [String: String] { Dictionary(uniqueKeysWithValues: map { ($0.value, $0.key) }) }
}
