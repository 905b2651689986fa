import Foundation

/// One line on standard error redrawn in place (`\r`), at most every 50 ms: the live progress of a long command on
/// a terminal (`test`, `bench`). Commands draw one only when ``CommandOutput/errorIsTerminal``.
final class LiveLine {
    private let output: CommandOutput
    private var lastDraw = ContinuousClock.now - .seconds(1)
    private var drawnWidth = 0

    /// Creates a line drawn on `output`'s standard error.
    init(output: CommandOutput) {
        self.output = output
    }

    /// Draws `text` over the line, unless the last draw was less than 50 ms ago and this one is not `final`.
    func draw(_ text: String, final: Bool = false) {
        let now = ContinuousClock.now
        guard final || now - lastDraw >= .milliseconds(50) else { return }
        lastDraw = now
        // Spaces over what a longer previous text left.
        let padding = String(repeating: " ", count: max(0, drawnWidth - text.count))
        drawnWidth = text.count
        output.writeError(Data(("\r" + text + padding).utf8))
    }

    /// Ends the line.
    func finish() {
        output.writeError(Data("\n".utf8))
    }
}
