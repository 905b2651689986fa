import Foundation
import Testing

/// Files and folders the user names that cannot be used: every command says so in one line, `PATH: error: the WHAT
/// REASON`, with status 2, through the one place that opens them (`UserFile`); no Foundation error text, no trap.
@Suite struct UnusableInputTests {
    /// Something unusable at a path.
    enum Unusable: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case missing, directory, device, empty, fileAsFolder

        var testDescription: String { rawValue }

        /// Makes it in `directory` and returns its path.
        func make(in directory: TemporaryDirectory) throws -> String {
            switch self {
            case .missing: return directory.url.appendingPathComponent("absent.json").path
            case .directory:
                let path = directory.url.appendingPathComponent("folder.json")
                try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
                return path.path
            case .device: return "/dev/null"
            case .empty: return try directory.write("", named: "empty.json")
            case .fileAsFolder:
                return try directory.write("x", named: "file").appending("/inside.json")
            }
        }

        /// The words that end the message.
        var reason: String {
            switch self {
            case .missing, .fileAsFolder: "does not exist"
            case .directory: "is a directory, not a file"
            case .device: "is not a regular file (a character device)"
            case .empty: "is empty"
            }
        }
    }

    /// A command line naming a file (`PATH`), what its message calls the file, and whether an empty file is usable.
    struct Use: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var what: String
        var emptyIsUsable = false
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let uses: [Use] = [
        Use(arguments: ["resolve", "--offline", "--manifest", "PATH", "https://x.example/"], what: "manifest"),
        Use(arguments: ["explain", "--offline", "--manifest", "PATH", "https://x.example/"], what: "manifest"),
        Use(arguments: ["resolve", "--offline", "--batch", "PATH"], what: "batch input", emptyIsUsable: true),
        Use(arguments: ["test", "PATH"], what: "manifest"),
        Use(arguments: ["test", "--cases", "PATH"], what: "manifest"),
        Use(arguments: ["lint", "PATH"], what: "manifest"),
        Use(arguments: ["minify", "PATH", "--no-verify"], what: "manifest"),
        Use(arguments: ["migrate", "PATH", "--to", "v5"], what: "manifest"),
        Use(arguments: ["bench", "--corpus", "PATH"], what: "corpus"),
    ]

    @Test(arguments: uses, Unusable.allCases)
    func saysWhyInOneLineWithStatusTwo(_ use: Use, unusable: Unusable) async throws {
        let directory = try TemporaryDirectory()
        let path = try unusable.make(in: directory)
        let output = await InProcessCommand.run(use.arguments.map { $0 == "PATH" ? path : $0 })
        if unusable == .empty && use.emptyIsUsable {
            #expect(output.status == 0, "\(output.stderr)")
            #expect(output.stdout.isEmpty)
            return
        }
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        #expect(output.stderrLines.count == 1, "\(output.stderr)")
        let line = try #require(output.stderrLines.first)
        #expect(line.hasPrefix("\(path): error: the \(use.what) \(unusable.reason)"), "\(line)")
        for foundation in ["NSCocoaErrorDomain", "Error Domain", "NSPOSIXErrorDomain", "no permission"] {
            #expect(!line.contains(foundation), "\(line)")
        }
    }

    @Test(.enabled(if: getuid() != 0, "root reads every file"))
    func aFileTheUserMayNotReadSaysSo() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("{}", named: "secret.json")
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: path)
        let output = await InProcessCommand.run(["lint", path])
        #expect(output.status == 2)
        #expect(output.stderrLines == ["\(path): error: the manifest is not readable (no permission)"])
    }

    /// The choices store: SQLite creates a missing file, but a folder or a device there is said in the tool's words.
    @Test(arguments: [Unusable.directory, .device])
    func aChoicesStoreThatIsNotAFileIsOneError(_ unusable: Unusable) async throws {
        let directory = try TemporaryDirectory()
        let path = try unusable.make(in: directory)
        let output = await InProcessCommand.run([
            "choose", "--type", "maps", "--set-default", "waze", "--choices", path,
        ])
        #expect(output.status == 2)
        #expect(output.stderrLines == ["\(path): error: the choices store \(unusable.reason)"])
    }

    /// `--replay` names a folder: a missing one (or a file) stops the command before anything runs.
    @Test(arguments: [["test", "--replay", "PATH"], ["resolve", "--replay", "PATH", "https://x.example/"]])
    func aMissingFixturesFolderIsOneError(_ arguments: [String]) async throws {
        let directory = try TemporaryDirectory()
        let missing = directory.url.appendingPathComponent("fixtures").path
        let output = await InProcessCommand.run(arguments.map { $0 == "PATH" ? missing : $0 })
        #expect(output.status == 2)
        #expect(output.stdout.isEmpty)
        #expect(output.stderrLines == ["\(missing): error: the fixtures folder does not exist"])
        let file = try directory.write("x", named: "file")
        let notAFolder = await InProcessCommand.run(arguments.map { $0 == "PATH" ? file : $0 })
        #expect(notAFolder.stderrLines == ["\(file): error: the fixtures folder is a file, not a directory"])
    }

    /// A regex ICU refuses: ICU's reason and where, and what happens to the manifest (refused, not "ignored").
    @Test func aBadRegexGivesICUsReasonAndTheManifestsFate() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(
            #"""
            {"apps": [{"identifier": "a", "name": "A", "scheme": "a"}],
             "actions": [{"formats": [{"appId": "a", "format": "a://"}], "regex": "https://x\\.example/(unclosed"}]}
            """#,
            named: "regex.json"
        )
        let refused = await InProcessCommand.run(["resolve", "--offline", "--manifest", path, "https://x.example/"])
        #expect(refused.status == 2)
        #expect(refused.stderrLines.count == 2, "\(refused.stderr)")
        let regex = try #require(refused.stderrLines.first)
        #if os(Linux)
        #expect(regex.contains("unbalanced parentheses"), "\(regex)")
        #expect(regex.contains("at offset 28 (U_REGEX_MISMATCHED_PAREN)"), "\(regex)")
        #endif
        #expect(!refused.stderr.contains("ignored"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("NSCocoaErrorDomain"))
        #expect(
            refused.stderrLines.last
                == "\(path): error: the manifest is refused, so none of its rules are used: 1 entry has an error (--lenient uses the rest of the rules)"
        )
        // Under --lenient the entry is left out and the rest used: then the diagnostic says so.
        let lenient = await InProcessCommand.run([
            "resolve", "--offline", "--lenient", "--manifest", path, "https://x.example/",
        ])
        #expect(lenient.status == 0)
        #expect(lenient.stderrLines.count == 2, "\(lenient.stderr)")
        #expect(lenient.stderrLines.first?.contains("; this rule is ignored") == true)
        // No rule opens the link, and offline its server is not asked: said, not skipped.
        #expect(lenient.stderrLines.last?.hasSuffix("[E_OFFLINE]") == true)
    }
}
