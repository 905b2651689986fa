import HTTPTypes

/// The directives of `Cache-Control` (RFC 9111 §5.2), in a request or a response.
///
/// Hand-written because `Cache-Control` keeps its legacy syntax (comma-separated `token[=token|quoted-string]`), which
/// swift-http-structured-headers does not read. Read leniently, as caches must: names in any case, arguments as a
/// token or a quoted string, several field lines joined, elements that are not directives skipped. A directive that
/// appears twice with different arguments, or whose seconds are not digits, is *invalid*: the cache then treats the
/// response as stale (§4.2.1 encourages that), never as fresh for a guessed time.
package struct CacheControl: Sendable, Hashable {
    /// A directive's argument read as delta-seconds (§1.2.2).
    package enum Seconds: Sendable, Hashable {
        /// The directive is not there.
        case absent
        /// Whole seconds, at most 2³¹ (larger values are read as 2³¹, as §1.2.2 says).
        case valid(Int)
        /// The directive is there without usable seconds (no argument, not digits, given twice differently).
        case invalid
    }

    /// The largest delta-seconds kept: 2³¹ (about 68 years).
    package static let maxSeconds = 2_147_483_648
    /// At most this many directives are read; the rest of a hostile header is ignored.
    private static let maxDirectives = 64

    private var arguments: [String: String?] = [:]
    private var conflicting: Set<String> = []

    /// The directives of every `Cache-Control` line in `fields`.
    package init(_ fields: HTTPFields) {
        for value in fields[values: .cacheControl] { read(value) }
    }

    /// The directives of one `Cache-Control` value.
    package init(_ value: String) {
        read(value)
    }

    /// Whether the directive `name` (lower case) is present, with or without an argument.
    package func has(_ name: String) -> Bool { arguments[name] != nil }

    /// The seconds of the directive `name` (lower case).
    package func seconds(_ name: String) -> Seconds {
        guard let argument = arguments[name] else { return .absent }
        guard !conflicting.contains(name), let text = argument, !text.isEmpty, text.utf8.count <= 40,
            text.utf8.allSatisfy({ (48...57).contains($0) })
        else { return .invalid }
        // Digits only: a value too long for Int is larger than 2³¹ anyway.
        return .valid(Int(text).map { min($0, Self.maxSeconds) } ?? Self.maxSeconds)
    }

    private mutating func read(_ value: String) {
        for element in Self.elements(of: value) where arguments.count < Self.maxDirectives {
            let (name, argument) = Self.directive(element)
            guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte) else { continue }
            if let previous = arguments[name] {
                if previous != argument { conflicting.insert(name) }
            } else {
                arguments[name] = .some(argument)
            }
        }
    }

    /// The comma-separated elements of `value`, commas inside quoted strings kept.
    private static func elements(of value: String) -> [Substring] {
        var elements: [Substring] = []
        var start = value.startIndex
        var quoted = false
        var escaped = false
        for index in value.indices {
            let character = value[index]
            if escaped {
                escaped = false
            } else if quoted && character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == "," && !quoted {
                elements.append(value[start..<index])
                start = value.index(after: index)
            }
        }
        elements.append(value[start...])
        return elements
    }

    /// The lower-cased name and the argument (unquoted) of one element.
    private static func directive(_ element: Substring) -> (name: String, argument: String?) {
        let trimmed = element.trimmingOWS
        guard let equals = trimmed.firstIndex(of: "=") else { return (trimmed.lowercased(), nil) }
        let name = trimmed[..<equals].trimmingOWS.lowercased()
        let raw = trimmed[trimmed.index(after: equals)...].trimmingOWS
        guard raw.first == "\"" else { return (name, String(raw)) }
        guard raw.count >= 2, raw.last == "\"" else { return (name, "") }  // an unclosed quote: no usable argument
        var unquoted = ""
        var escaped = false
        for character in raw.dropFirst().dropLast() {
            if !escaped && character == "\\" {
                escaped = true
            } else {
                unquoted.append(character)
                escaped = false
            }
        }
        return (name, unquoted)
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        // tchar (RFC 9110 §5.6.2): visible ASCII except delimiters.
        guard byte > 32, byte < 127 else { return false }
        return !"\"(),/:;<=>?@[\\]{}".utf8.contains(byte)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP's optional white space).
    package var trimmingOWS: Substring {
        let view = Substring(self)
        guard let first = view.firstIndex(where: { $0 != " " && $0 != "\t" }),
            let last = view.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return view[view.endIndex...] }
        return view[first...last]
    }
}
