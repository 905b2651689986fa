import Foundation
import Testing

/// A JSON Schema (draft 2020-12) of Docs/ checked against documents by python3's `jsonschema`, when the PATH's python3
/// has it (nothing is installed for the tests): the user layer's and the device file's schema tests.
package enum JSONSchemaCheck {
    /// `env`, to run the `python3` of the PATH, when that one has `jsonschema`.
    package static let validator: URL? = {
        let env = URL(fileURLWithPath: "/usr/bin/env")
        guard FileManager.default.isExecutableFile(atPath: env.path) else { return nil }
        let process = Process()
        process.executableURL = env
        process.arguments = ["python3", "-c", "import jsonschema"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        return process.terminationStatus == 0 ? env : nil
    }()

    /// Why a schema test is skipped.
    package static let skipReason: Comment =
        "python3 with jsonschema is not available: the schema is checked by its keys"

    /// The schema's verdict on each document: nil when valid, else the first error's message.
    package static func validate(_ documents: [String], schema: URL) throws -> [String?] {
        let env = try #require(validator)
        let process = Process()
        process.executableURL = env
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema)
            for document in json.load(sys.stdin):
                errors = list(validator.iter_errors(json.loads(document)))
                print(json.dumps(errors[0].message if errors else None))
            """
        process.arguments = ["python3", "-c", script, schema.path]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: documents))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8), options: .fragmentsAllowed)) as? String
        }
    }
}
