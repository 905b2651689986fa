/// Typed reads of single values, each reporting a located diagnostic when the type is wrong.
extension ManifestDecoder {
    /// A string member; reports E_MISSING when required and absent, E_TYPE when not a string.
    func string(_ object: JSONNode, _ keys: [String], at pointer: JSONPointer, required: Bool = false) -> String? {
        guard let (key, node) = member(object, keys) else {
            if required {
                report(.error, "E_MISSING", "the required key \"\(keys[0])\" is missing", at: pointer, node: object)
            }
            return nil
        }
        let valuePointer = pointer.appending(key)
        guard let string = node.stringValue else {
            report(
                .error,
                "E_TYPE",
                "\"\(key)\" must be a string, not \(node.typeDescription)",
                at: valuePointer,
                node: node
            )
            return nil
        }
        return string
    }

    /// A boolean member: `true`/`false`, or `1`/`0` as real manifests write them; `"true"` is coerced with a warning.
    func bool(_ object: JSONNode, _ keys: [String], at pointer: JSONPointer) -> Bool {
        guard let (key, node) = member(object, keys) else { return false }
        let valuePointer = pointer.appending(key)
        switch node.value {
        case .bool(let value):
            return value
        case .number(let text) where text == "0" || text == "1":
            return text == "1"
        case .string(let text) where text == "true" || text == "false":
            report(
                .warning,
                "E_TYPE",
                "\"\(key)\" should be a boolean, not the string \"\(text)\"; read as \(text)",
                at: valuePointer,
                node: node
            )
            return text == "true"
        default:
            report(
                .error,
                "E_TYPE",
                "\"\(key)\" must be true, false, 1 or 0, not \(node.typeDescription); read as false",
                at: valuePointer,
                node: node
            )
            return false
        }
    }

    /// A store identifier: a positive integer (v5) or a string of digits (v1–v4). Returns `.failure` when the value
    /// cannot be an identifier, so the caller can skip the entry.
    func storeIdentifier(_ object: JSONNode, _ keys: [String], at pointer: JSONPointer) -> Result<Int?, StoreIdError> {
        guard let (key, node) = member(object, keys) else { return .success(nil) }
        let valuePointer = pointer.appending(key)
        let text: String
        switch node.value {
        case .number(let literal):
            text = literal
        case .string(let literal):
            text = literal
            if version == .v5 {
                report(
                    .warning,
                    "E_TYPE",
                    "\"\(key)\" is the string \"\(literal)\"; v5 manifests use a number",
                    at: valuePointer,
                    node: node
                )
            }
        default:
            report(
                .error,
                "E_TYPE",
                "\"\(key)\" must be a number, not \(node.typeDescription)",
                at: valuePointer,
                node: node
            )
            return .failure(StoreIdError())
        }
        guard let value = Int(text), value > 0 else {
            report(
                .error,
                "E_RANGE",
                "\"\(key)\" is \(text), which is not a positive whole number that fits in 64 bits",
                at: valuePointer,
                node: node
            )
            return .failure(StoreIdError())
        }
        return .success(value)
    }

    /// An array of strings; reports wrong element types and drops them.
    func strings(_ object: JSONNode, _ keys: [String], at pointer: JSONPointer) -> [String]? {
        guard let (key, node) = member(object, keys) else { return nil }
        let valuePointer = pointer.appending(key)
        guard let elements = node.elements else {
            report(
                .error,
                "E_TYPE",
                "\"\(key)\" must be an array of strings, not \(node.typeDescription)",
                at: valuePointer,
                node: node
            )
            return nil
        }
        var result: [String] = []
        for (index, element) in elements.enumerated() {
            if let string = element.stringValue {
                result.append(string)
            } else {
                report(
                    .error,
                    "E_TYPE",
                    "test input \(index) must be a string, not \(element.typeDescription)",
                    at: valuePointer.appending(index),
                    node: element
                )
            }
        }
        return result
    }

    /// An array of strings or nulls (`testResults`); a wrong element makes the whole array unusable.
    func optionalStrings(_ object: JSONNode, _ keys: [String], at pointer: JSONPointer) -> [String?]? {
        guard let (key, node) = member(object, keys) else { return nil }
        let valuePointer = pointer.appending(key)
        guard let elements = node.elements else {
            report(
                .error,
                "E_TYPE",
                "\"\(key)\" must be an array of strings or nulls, not \(node.typeDescription)",
                at: valuePointer,
                node: node
            )
            return nil
        }
        var result: [String?] = []
        for (index, element) in elements.enumerated() {
            switch element.value {
            case .string(let string): result.append(string)
            case .null: result.append(nil)
            default:
                report(
                    .error,
                    "E_TYPE",
                    "test result \(index) must be a string or null, not \(element.typeDescription)",
                    at: valuePointer.appending(index),
                    node: element
                )
                return nil
            }
        }
        return result
    }

    /// The first present member among `keys` (a current name and its legacy spelling).
    func member(_ object: JSONNode, _ keys: [String]) -> (String, JSONNode)? {
        for key in keys {
            if let node = object[key] { return (key, node) }
        }
        return nil
    }
}

/// Marks a store identifier that made its entry unusable (the diagnostic is already recorded).
struct StoreIdError: Error {}
