/// A repeatable `--param name=value` option, as `choose` and `xcallback build` take it.
enum ParameterArgument {
    /// Splits `text` at its first `=`; a text without one, or with nothing before it, is bad input. `form` is how the
    /// help writes the value (`key=value`, `name=value`).
    static func split(_ text: String, form: String) throws(CommandFailure) -> (name: String, value: String) {
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw CommandFailure(message: "error: --param \"\(text)\" must be \(form)")
        }
        return (String(text[..<equals]), String(text[text.index(after: equals)...]))
    }
}
