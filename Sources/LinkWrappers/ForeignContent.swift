/// Where the scanner is with respect to SVG and MathML: inside them, raw-text elements are markup and CDATA sections are
/// text, until an element that breaks out of foreign content or an HTML integration point.
struct ForeignContent {
    /// Open `svg` and `math` elements, and the integration points inside them (`html:` and their name).
    private var stack: [String] = []

    /// Whether tags are read as SVG or MathML.
    var isForeign: Bool { !stack.isEmpty && !stack[stack.count - 1].hasPrefix("html:") }

    /// The HTML elements that end foreign content.
    static let breakout: Set<String> = [
        "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed", "h1", "h2",
        "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr", "ol", "p", "pre",
        "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var",
    ]

    /// Takes a start tag; returns whether it is an HTML element (false: an SVG or MathML one).
    mutating func start(_ name: String, attributes: [String: String], selfClosing: Bool) -> Bool {
        if isForeign {
            let breaksOut =
                Self.breakout.contains(name)
                || (name == "font" && ["color", "face", "size"].contains { attributes[$0] != nil })
            if breaksOut {
                while isForeign { stack.removeLast() }
                return true
            }
            let root = stack.last { $0 == "svg" || $0 == "math" } ?? "svg"
            let encoding = attributes["encoding"].map(Refresh.asciiLowercased)
            let isIntegrationPoint =
                root == "svg"
                ? ["foreignobject", "desc", "title"].contains(name)
                : ["mi", "mo", "mn", "ms", "mtext"].contains(name)
                    || (name == "annotation-xml" && (encoding == "text/html" || encoding == "application/xhtml+xml"))
            if !selfClosing {
                if isIntegrationPoint {
                    stack.append("html:" + name)
                } else if name == "svg" || name == "math" {
                    stack.append(name)
                }
            }
            return false
        }
        if (name == "svg" || name == "math") && !selfClosing {
            stack.append(name)
            return false
        }
        return true
    }

    /// Takes an end tag.
    mutating func end(_ name: String) {
        if let last = stack.last, last == "html:" + name {
            stack.removeLast()
        } else if name == "svg" || name == "math", let index = stack.lastIndex(of: name) {
            stack.removeSubrange(index...)
        }
    }
}
