/// The part of the HTML Standard's tokenizer that finds tags and their attributes, for ``MetaRefreshScanner``:
/// comments, doctypes and bogus comments are skipped, the text of raw-text elements is not markup, attribute values
/// are read as the tokenizer reads them (quoted or not, character references decoded, names lower-cased, the first of
/// a repeated name kept), and a tag the input ends inside is not a tag.
struct HTMLTokenizer {
    /// A start or end tag.
    enum Token {
        case startTag(name: String, attributes: [String: String], selfClosing: Bool)
        case endTag(name: String)
    }

    /// How the text after a start tag is read, as the tree builder switches the tokenizer.
    enum TextMode: Equatable {
        /// Markup.
        case data
        /// `<title>`, `<textarea>`: text until their end tag (RCDATA).
        case escapableRawText(String)
        /// `<style>`, `<xmp>`, `<iframe>`, `<noembed>`, `<noframes>`: text until their end tag (RAWTEXT).
        case rawText(String)
        /// `<script>`: text until `</script>`, with the script data escape states.
        case script
        /// `<plaintext>`: text to the end.
        case plaintext
    }

    let input: [Unicode.Scalar]
    var position = 0
    var mode = TextMode.data
    /// Whether `<![CDATA[` opens a CDATA section (in SVG and MathML), rather than a bogus comment.
    var inForeignContent = false

    init(_ input: [Unicode.Scalar]) {
        self.input = input
    }

    /// The next tag, or nil at the end of the input (a tag it ends inside included).
    mutating func next() -> Token? {
        switch mode {
        case .plaintext:
            return nil
        case .rawText(let name), .escapableRawText(let name):
            guard findEndTag(name) else { return nil }
            return finishEndTag(name)
        case .script:
            guard findScriptEnd() else { return nil }
            return finishEndTag("script")
        case .data:
            break
        }
        while position < input.count {
            guard input[position] == "<" else {
                position += 1
                continue
            }
            position += 1
            guard position < input.count else { return nil }
            let character = input[position]
            if character == "!" {
                position += 1
                skipMarkupDeclaration()
            } else if character == "/" {
                position += 1
                guard position < input.count else { return nil }
                if isASCIILetter(input[position]) {
                    let name = tagName()
                    guard let _ = attributes() else { return nil }
                    return .endTag(name: name)
                }
                if input[position] == ">" {
                    position += 1
                } else {
                    skipBogusComment()
                }
            } else if isASCIILetter(character) {
                let name = tagName()
                guard let (attributes, selfClosing) = attributes() else { return nil }
                return .startTag(name: name, attributes: attributes, selfClosing: selfClosing)
            } else if character == "?" {
                skipBogusComment()
            }
        }
        return nil
    }

    // MARK: Comments and declarations

    /// After `<!`: a comment, a doctype, a CDATA section in foreign content, or a bogus comment.
    private mutating func skipMarkupDeclaration() {
        if starts(with: "--") {
            position += 2
            // `<!-->` and `<!--->` are empty comments; otherwise a comment ends at the first `-->` or `--!>`.
            if starts(with: ">") {
                position += 1
                return
            }
            if starts(with: "->") {
                position += 2
                return
            }
            while position < input.count {
                if starts(with: "-->") {
                    position += 3
                    return
                }
                if starts(with: "--!>") {
                    position += 4
                    return
                }
                position += 1
            }
            return
        }
        if inForeignContent, starts(with: "[CDATA[") {
            position += 7
            while position < input.count, !starts(with: "]]>") { position += 1 }
            position = min(input.count, position + 3)
            return
        }
        // A doctype ends at its first `>`, quoted or not; so does a bogus comment.
        skipBogusComment()
    }

    private mutating func skipBogusComment() {
        while position < input.count, input[position] != ">" { position += 1 }
        position = min(input.count, position + 1)
    }

    // MARK: Tags

    /// The tag name from `position`, lower-cased, to white space, `/` or `>`.
    private mutating func tagName() -> String {
        var name = String.UnicodeScalarView()
        while position < input.count {
            let character = input[position]
            if isWhitespace(character) || character == "/" || character == ">" { break }
            name.append(character == "\0" ? "\u{FFFD}" : lowered(character))
            position += 1
        }
        return String(name)
    }

    /// The attributes after a tag name, to the tag's `>`; nil when the input ends first.
    private mutating func attributes() -> (attributes: [String: String], selfClosing: Bool)? {
        var attributes: [String: String] = [:]
        while true {
            while position < input.count, isWhitespace(input[position]) { position += 1 }
            guard position < input.count else { return nil }
            switch input[position] {
            case ">":
                position += 1
                return (attributes, false)
            case "/":
                position += 1
                guard position < input.count else { return nil }
                if input[position] == ">" {
                    position += 1
                    return (attributes, true)
                }
                continue
            default:
                break
            }
            // An attribute name (a leading `=` is part of it), to white space, `/`, `>` or `=`.
            var name = String.UnicodeScalarView()
            repeat {
                let character = input[position]
                name.append(character == "\0" ? "\u{FFFD}" : lowered(character))
                position += 1
            } while position < input.count && !isWhitespace(input[position])
                && !"/>=".unicodeScalars.contains(input[position])
            while position < input.count, isWhitespace(input[position]) { position += 1 }
            var value = String.UnicodeScalarView()
            if position < input.count, input[position] == "=" {
                position += 1
                while position < input.count, isWhitespace(input[position]) { position += 1 }
                guard position < input.count else { return nil }
                guard let read = attributeValue() else { return nil }
                value = read
            }
            let key = String(name)
            if attributes[key] == nil { attributes[key] = String(value) }
        }
    }

    /// A value after `=`: quoted with `"` or `'`, or unquoted to white space or `>`; character references decoded.
    /// Nil when the input ends inside it.
    private mutating func attributeValue() -> String.UnicodeScalarView? {
        var value = String.UnicodeScalarView()
        let quote = input[position]
        let quoted = quote == "\"" || quote == "'"
        if quoted {
            position += 1
        } else if quote == ">" {
            // A missing value: the `>` ends the tag.
            return value
        }
        while position < input.count {
            let character = input[position]
            if quoted ? character == quote : isWhitespace(character) || character == ">" {
                if quoted { position += 1 }
                return value
            }
            if character == "&", let (text, end) = HTMLCharacterReference.decode(input, at: position + 1) {
                value.append(contentsOf: text)
                position = end
                continue
            }
            value.append(character == "\0" ? "\u{FFFD}" : character)
            position += 1
        }
        return nil
    }

    /// The rest of an end tag whose name was found (`</name` read): its attributes, to its `>`.
    private mutating func finishEndTag(_ name: String) -> Token? {
        mode = .data
        guard attributes() != nil else { return nil }
        return .endTag(name: name)
    }

    // MARK: Raw text

    /// Moves past the next `</name` followed by white space, `/` or `>` (name compared without case); false when there
    /// is none.
    private mutating func findEndTag(_ name: String) -> Bool {
        while position < input.count {
            if input[position] == "<", isEndTag(name, at: position) {
                position += 2 + name.unicodeScalars.count
                return true
            }
            position += 1
        }
        return false
    }

    /// Whether `</name` followed by white space, `/` or `>` starts at `index`.
    private func isEndTag(_ name: String, at index: Int) -> Bool {
        let nameScalars = Array(name.unicodeScalars)
        let after = index + 2 + nameScalars.count
        guard after < input.count, input[index] == "<", input[index + 1] == "/" else { return false }
        for (offset, scalar) in nameScalars.enumerated() where lowered(input[index + 2 + offset]) != scalar {
            return false
        }
        return isWhitespace(input[after]) || input[after] == "/" || input[after] == ">"
    }

    /// Moves past the `</script` that ends script data, through the escape states a `<!--` opens (inside which
    /// `<script>` starts a double escape that its `</script>` ends, not the element); false when there is none.
    private mutating func findScriptEnd() -> Bool {
        enum State {
            case data
            case escaped
            case doubleEscaped
        }
        var state = State.data
        while position < input.count {
            switch state {
            case .data:
                if isEndTag("script", at: position) {
                    position += 8
                    return true
                }
                if starts(with: "<!--") {
                    state = .escaped
                    // The dashes of `<!--` can also end it (`<!-->`).
                    position += 2
                    continue
                }
            case .escaped:
                if starts(with: "-->") {
                    state = .data
                    position += 3
                    continue
                }
                if isEndTag("script", at: position) {
                    position += 8
                    return true
                }
                if input[position] == "<", let name = letters(after: position + 1), name == "script",
                    isTerminator(at: position + 7)
                {
                    state = .doubleEscaped
                    position += 7
                    continue
                }
            case .doubleEscaped:
                if starts(with: "-->") {
                    state = .data
                    position += 3
                    continue
                }
                if isEndTag("script", at: position) {
                    state = .escaped
                    position += 8
                    continue
                }
            }
            position += 1
        }
        return false
    }

    /// The ASCII letters from `index`, lower-cased, up to six (enough to tell `script`).
    private func letters(after index: Int) -> String? {
        var letters = String.UnicodeScalarView()
        var index = index
        while index < input.count, letters.count < 6, isASCIILetter(input[index]) {
            letters.append(lowered(input[index]))
            index += 1
        }
        return letters.isEmpty ? nil : String(letters)
    }

    private func isTerminator(at index: Int) -> Bool {
        index < input.count && (isWhitespace(input[index]) || input[index] == "/" || input[index] == ">")
    }

    // MARK: Characters

    private func starts(with text: String) -> Bool {
        var index = position
        for scalar in text.unicodeScalars {
            guard index < input.count, lowered(input[index]) == lowered(scalar) else { return false }
            index += 1
        }
        return true
    }

    private func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\u{0C}"
    }

    private func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    private func lowered(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
    }
}
