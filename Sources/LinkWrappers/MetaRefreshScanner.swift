import WebLinks

/// Finds the refresh of an HTML answer: the first `<meta http-equiv="refresh" content="…">` whose content the refresh
/// steps accept (``Refresh/parse(_:page:)``), read from a bounded prefix of the body as a browser's tokenizer reads it.
///
/// - Attribute values are quoted with `"` or `'` or unquoted, their character references decoded (`&amp;`, `&#39;`,
///   the whole table of named references); names are compared without case, and the first of two attributes with the
///   same name is the one read.
/// - The text of comments, doctypes and processing instructions is not markup, nor that of `<script>`, `<style>`,
///   `<textarea>`, `<title>`, `<xmp>`, `<iframe>`, `<noembed>`, `<noframes>` and `<plaintext>`, and a `<template>`'s
///   contents are not in the document. `<noscript>` is read as markup, as by a browser with scripts off (a follower
///   runs none). In SVG and MathML, those elements are markup and `<![CDATA[…]]>` is text, until an element that
///   ends foreign content (`<meta>` is one) or an HTML integration point (`<foreignObject>`, `<mtext>`, …).
/// - A meta element with another `http-equiv`, or with no `content` or an empty one, is not a refresh; one whose
///   content the steps refuse does not count, and the next one can; the first that counts is the refresh, and every
///   later one is ignored. A tag the prefix ends inside is not read.
///
/// The body is read as UTF-8 (an invalid sequence is U+FFFD); no script runs.
public enum MetaRefreshScanner {
    /// How much of a body is read by default: 64 KiB (a bounce page has its refresh in its first kilobytes).
    public static let maximumBytes = 64 << 10

    /// The first refresh of the HTML `body` (at most its first `maximumBytes` bytes) of the document at `page`, or nil.
    public static func firstRefresh(
        in body: some Sequence<UInt8>,
        page: Link,
        maximumBytes: Int = MetaRefreshScanner.maximumBytes
    ) -> Refresh? {
        var tokenizer = HTMLTokenizer(scalars(of: body, maximumBytes: maximumBytes))
        var foreign = ForeignContent()
        var templates = 0
        while let token = tokenizer.next() {
            switch token {
            case .startTag(let name, let attributes, let selfClosing):
                let isHTML = foreign.start(name, attributes: attributes, selfClosing: selfClosing)
                tokenizer.inForeignContent = foreign.isForeign
                guard isHTML else { continue }
                if name == "template" { templates += 1 }
                if name == "meta", templates == 0, let refresh = refresh(of: attributes, page: page) { return refresh }
                tokenizer.mode = textMode(after: name)
            case .endTag(let name):
                if name == "template" { templates = max(0, templates - 1) }
                foreign.end(name)
                tokenizer.inForeignContent = foreign.isForeign
            }
        }
        return nil
    }

    /// The refresh of a response: its `Refresh` header's value (`header`) is seen before any element of its HTML
    /// `body`, so a header that gives a refresh decides; otherwise the body's first meta refresh.
    public static func refresh(
        header: String?,
        body: some Sequence<UInt8>,
        page: Link,
        maximumBytes: Int = MetaRefreshScanner.maximumBytes
    ) -> Refresh? {
        if let header, let refresh = Refresh.parse(header, page: page) { return refresh }
        return firstRefresh(in: body, page: page, maximumBytes: maximumBytes)
    }

    /// A meta element's refresh: `http-equiv` is `refresh` (without regard to ASCII case), `content` is there and not
    /// empty, and the steps accept it.
    static func refresh(of attributes: [String: String], page: Link) -> Refresh? {
        guard let equiv = attributes["http-equiv"], Refresh.asciiLowercased(equiv) == "refresh",
            let content = attributes["content"], !content.isEmpty
        else { return nil }
        return Refresh.parse(content, page: page)
    }

    /// How the tokenizer reads the text after the start tag `name`.
    static func textMode(after name: String) -> HTMLTokenizer.TextMode {
        switch name {
        case "script": .script
        case "style", "xmp", "iframe", "noembed", "noframes": .rawText(name)
        case "title", "textarea": .escapableRawText(name)
        case "plaintext": .plaintext
        default: .data
        }
    }

    /// The first `maximumBytes` bytes as Unicode scalars, the way the input stream is made: UTF-8 (a byte-order mark
    /// skipped, invalid sequences U+FFFD) with CR LF and CR as LF.
    static func scalars(of body: some Sequence<UInt8>, maximumBytes: Int) -> [Unicode.Scalar] {
        var bytes = Array(body.prefix(max(0, maximumBytes)))
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(bytes.count)
        var previousWasCR = false
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            if scalar == "\n", previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = scalar == "\r"
            scalars.append(previousWasCR ? "\n" : scalar)
        }
        return scalars
    }
}
