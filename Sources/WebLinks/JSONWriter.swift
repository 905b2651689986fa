/// Writes a ``JSONNode`` tree back to JSON text, keeping member order and number literals exactly as read.
///
/// Tools that rewrite manifests (minify, migrate) go through this writer so that redirect rules keep their order
/// and numbers such as `12345678901234567890` survive untouched.
public struct JSONWriter: Sendable {
    /// How the text is laid out.
    public enum Style: Sendable, Equatable {
        /// No whitespace at all.
        case compact
        /// Members and elements on their own lines, indented by this many spaces.
        case pretty(indent: Int)
    }

    /// The layout.
    public var style: Style

    /// Creates a writer.
    public init(style: Style = .pretty(indent: 2)) {
        self.style = style
    }

    /// The JSON text of `node`, ending with a newline when pretty.
    public func write(_ node: JSONNode) -> String {
        var output = ""
        write(node, depth: 0, into: &output)
        if case .pretty = style { output.append("\n") }
        return output
    }

    private func write(_ node: JSONNode, depth: Int, into output: inout String) {
        switch node.value {
        case .null: output.append("null")
        case .bool(let value): output.append(value ? "true" : "false")
        case .number(let literal): output.append(literal)
        case .string(let string): Self.appendQuoted(string, to: &output)
        case .array(let elements):
            writeContainer(open: "[", close: "]", count: elements.count, depth: depth, into: &output) { index, output in
                write(elements[index], depth: depth + 1, into: &output)
            }
        case .object(let members):
            writeContainer(open: "{", close: "}", count: members.count, depth: depth, into: &output) { index, output in
                Self.appendQuoted(members[index].key, to: &output)
                output.append(style == .compact ? ":" : ": ")
                write(members[index].value, depth: depth + 1, into: &output)
            }
        }
    }

    private func writeContainer(
        open: String,
        close: String,
        count: Int,
        depth: Int,
        into output: inout String,
        element: (Int, inout String) -> Void
    ) {
        output.append(open)
        guard count > 0 else { return output.append(close) }
        guard case .pretty(let indent) = style else {
            for index in 0..<count {
                if index > 0 { output.append(",") }
                element(index, &output)
            }
            return output.append(close)
        }
        let inner = String(repeating: " ", count: indent * (depth + 1))
        for index in 0..<count {
            output.append(index == 0 ? "\n" : ",\n")
            output.append(inner)
            element(index, &output)
        }
        output.append("\n")
        output.append(String(repeating: " ", count: indent * depth))
        output.append(close)
    }

    /// Appends `string` as a JSON string literal: `"` and `\` escaped, control characters as `\n`, `\t` or `\u00XX`,
    /// everything else (including non-ASCII) as itself.
    public static func appendQuoted(_ string: String, to output: inout String) {
        output.append("\"")
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": output.append("\\\"")
            case "\\": output.append("\\\\")
            case "\n": output.append("\\n")
            case "\r": output.append("\\r")
            case "\t": output.append("\\t")
            case "\u{08}": output.append("\\b")
            case "\u{0C}": output.append("\\f")
            case "\u{2028}": output.append("\\u2028")
            case "\u{2029}": output.append("\\u2029")
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output.append("\"")
    }
}

extension JSONNode {
    /// Whether the value is neither an array nor an object.
    public var isScalar: Bool {
        switch value {
        case .array, .object: false
        default: true
        }
    }

    /// A node with no source position, for trees built by tools.
    public static func make(_ value: Value) -> JSONNode {
        JSONNode(value, at: SourcePosition(line: 0, column: 0, offset: 0))
    }

    /// A string node built by a tool.
    public static func string(_ string: String) -> JSONNode { make(.string(string)) }

    /// The same value with every source position cleared, so trees from different texts compare by content.
    public var withoutPositions: JSONNode {
        let cleared: Value =
            switch value {
            case .array(let elements): .array(elements.map(\.withoutPositions))
            case .object(let members):
                .object(members.map { JSONMember(key: $0.key, value: $0.value.withoutPositions) })
            default: value
            }
        return .make(cleared)
    }
}

extension JSONMember {
    /// A member built by a tool (no source position).
    public init(key: String, value: JSONNode) {
        self.init(key: key, keyPosition: SourcePosition(line: 0, column: 0, offset: 0), value: value)
    }
}
