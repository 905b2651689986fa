import ArgumentParser
import LinkRules

/// `--platform phone|pad`: read by LinkRules' one platform parser (any case), its values listed in help and offered
/// by shell completion, and a value that is neither named by argument-parser with its option.
extension Platform: ExpressibleByArgument {
    /// The platform named `argument` (any case), or nil, which argument-parser reports with the values it takes.
    public init?(argument: String) {
        guard let platform = try? Platform(parsing: argument) else { return nil }
        self = platform
    }
}
