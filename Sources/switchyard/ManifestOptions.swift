import ArgumentParser
import Foundation
import LinkResolver
import LinkRules

/// `--manifest PATH`: the rule set to use instead of the bundled one.
struct ManifestOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("An Opener-format manifest (v1–v5) to use instead of the bundled rules.", valueName: "path"))
    var manifest: String?

    /// Loads the chosen rule set; a file that cannot be loaded is a one-line error (exit 2) naming the place.
    func loadRules() throws -> RuleSet {
        guard let manifest else {
            do {
                return try RuleSet.bundled()
            } catch {
                throw CommandFailure(message: error.description)
            }
        }
        return try Self.load(path: manifest)
    }

    static func load(path: String) throws -> RuleSet {
        let url = URL(fileURLWithPath: path)
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw CommandFailure(message: "\(path): error: no readable file at this path")
        }
        do {
            return try RuleSet.load(contentsOf: url)
        } catch {
            throw CommandFailure(message: error.description)
        }
    }
}

/// Prints a value as JSON on standard output.
enum JSONOutput {
    static func encoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func print(_ value: some Encodable, pretty: Bool = true) throws {
        let data = try encoder(pretty: pretty).encode(value)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}
