/// A place in a source text: 1-based line and column (in UTF-8 bytes) and the 0-based byte offset.
public struct SourcePosition: Sendable, Hashable, Codable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// 1-based column, counted in UTF-8 bytes from the start of the line.
    public var column: Int
    /// 0-based byte offset from the start of the text (after any byte-order mark).
    public var offset: Int

    /// Creates a position.
    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}
