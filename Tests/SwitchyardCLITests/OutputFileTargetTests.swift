import Foundation
import SwitchyardTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every file a command writes (`migrate -o`, `minify -o`, `test --junit`) goes through the one writer: a regular
/// file replaced keeping its mode, a link followed, a device or FIFO written through, a folder refused. Devices are
/// made with `mknod` in the test's own folder, never the machine's `/dev/null`.
@Suite struct OutputFileTargetTests {
    static let manifest = """
        {"apps": [{"identifier": "a", "name": "A", "scheme": "a"}],
         "actions": [{"title": "Open", "regex": "https://a\\\\.example/(\\\\d+)", "testInputs": ["https://a.example/1"],
                      "formats": [{"appId": "a", "format": "a://$1", "testResults": ["a://1"]}]}]}
        """

    /// A command line that writes `OUT`, and what it writes there.
    struct Writer: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var writes: String
        var testDescription: String {
            arguments.prefix(1).joined() + " " + (arguments.first { $0.hasPrefix("-") } ?? "")
        }

        func arguments(manifest: String, out: String) -> [String] {
            arguments.map { $0 == "MANIFEST" ? manifest : $0 == "OUT" ? out : $0 }
        }
    }

    static let writers = [
        Writer(
            arguments: ["migrate", "MANIFEST", "--to", "v3", "--no-verify", "-o", "OUT"],
            writes: "\"appIdentifier\""
        ),
        Writer(arguments: ["minify", "MANIFEST", "--no-verify", "-o", "OUT"], writes: "a://$1"),
        Writer(arguments: ["test", "MANIFEST", "--junit", "OUT"], writes: "<testsuites"),
    ]

    @Test(arguments: writers)
    func aLinkIsFollowedAndItsTargetKeepsItsMode(_ writer: Writer) async throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write(Self.manifest, named: "rules.json")
        let target = try folder.write("old", named: "target.out")
        #expect(chmod(target, 0o600) == 0)
        #expect(symlink("target.out", folder.path("link.out")) == 0)
        let output = await InProcessCommand.run(writer.arguments(manifest: manifest, out: folder.path("link.out")))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8).contains(writer.writes))
        #expect(SpecialFiles.mode(at: target) == S_IFREG | 0o600)
        #expect(SpecialFiles.mode(at: folder.path("link.out")).map { $0 & S_IFMT } == S_IFLNK)
        #expect(folder.names == ["link.out", "rules.json", "target.out"])
    }

    @Test(arguments: writers)
    func aDeviceIsWrittenThroughNotReplaced(_ writer: Writer) async throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write(Self.manifest, named: "rules.json")
        let device = folder.path("null")
        if let reason = SpecialFiles.makeNullDevice(at: device) { try Test.cancel(Comment(rawValue: reason)) }
        let output = await InProcessCommand.run(writer.arguments(manifest: manifest, out: device))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(SpecialFiles.mode(at: device).map { $0 & S_IFMT } == S_IFCHR)
        #expect(folder.names == ["null", "rules.json"])
    }

    @Test(arguments: writers)
    func aFIFOFeedsItsReader(_ writer: Writer) async throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write(Self.manifest, named: "rules.json")
        let reader = try FIFOReader(path: folder.path("pipe"))
        let output = await InProcessCommand.run(writer.arguments(manifest: manifest, out: folder.path("pipe")))
        #expect(output.status == 0, "\(output.stderr)")
        #expect(reader.data().map { String(decoding: $0, as: UTF8.self).contains(writer.writes) } == true)
        #expect(SpecialFiles.mode(at: folder.path("pipe")).map { $0 & S_IFMT } == S_IFIFO)
    }

    @Test(arguments: writers)
    func aFolderIsRefusedByName(_ writer: Writer) async throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write(Self.manifest, named: "rules.json")
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: false)
        let output = await InProcessCommand.run(writer.arguments(manifest: manifest, out: folder.path("out")))
        #expect(output.status == 2)
        let what = writer.arguments.contains("--junit") ? "JUnit report" : "output file"
        #expect(output.stderrLines.last == "\(folder.path("out")): error: the \(what) is a directory, not a file")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("out")).isEmpty)
    }

    /// The built binary as another user (nobody, through `setpriv`): a file of theirs keeps its mode and owner, a
    /// file they may write in a folder they may not is written in place, and a device is written through.
    @Test func asAnotherUserFilesAreWrittenAsTheyMayBe() async throws {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            try Test.cancel("running as another user needs root and setpriv (util-linux)")
        }
        let folder = try TemporaryFolder()
        #expect(chmod(folder.url.path, 0o755) == 0)
        let manifest = try folder.write(Self.manifest, named: "rules.json")
        let nobody: uid_t = 65534
        // Theirs: a folder and a 600 file they own.
        try FileManager.default.createDirectory(atPath: folder.path("theirs"), withIntermediateDirectories: false)
        let own = try folder.write("old", named: "theirs/out.json")
        #expect(chown(folder.path("theirs"), nobody, gid_t(nobody)) == 0 && chown(own, nobody, gid_t(nobody)) == 0)
        #expect(chmod(own, 0o600) == 0)
        // Shared: root's file, writable by all, in root's folder (where they cannot make a temporary file).
        let shared = try folder.write("old", named: "shared.json")
        #expect(chmod(shared, 0o666) == 0)
        var outputs = [own, shared]
        let device = folder.path("null")
        if SpecialFiles.makeNullDevice(at: device) == nil { outputs.append(device) }
        for out in outputs {
            let run = try await SwitchyardProcess.run(
                executable: URL(fileURLWithPath: "/usr/bin/setpriv"),
                arguments: [
                    "--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", SwitchyardProcess.binaryURL.path,
                    "migrate", manifest, "--to", "v3", "--no-verify", "-o", out,
                ],
                environment: ["HOME": folder.url.path, "XDG_CONFIG_HOME": "", "XDG_CACHE_HOME": ""]
            )
            #expect(run.status == 0, "\(out): \(run.stderr)")
        }
        #expect(try String(contentsOfFile: own, encoding: .utf8).contains("\"appIdentifier\""))
        #expect(SpecialFiles.mode(at: own) == S_IFREG | 0o600)
        #expect(SpecialFiles.owner(at: own)?.user == nobody)
        #expect(try String(contentsOfFile: shared, encoding: .utf8).contains("\"appIdentifier\""))
        #expect(SpecialFiles.owner(at: shared)?.user == 0)
        #expect(SpecialFiles.mode(at: shared) == S_IFREG | 0o666)
        if outputs.count == 3 { #expect(SpecialFiles.mode(at: device).map { $0 & S_IFMT } == S_IFCHR) }
        #expect(
            folder.names
                == ["null", "rules.json", "shared.json", "theirs"].filter { outputs.count == 3 || $0 != "null" }
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("theirs")) == ["out.json"])
    }
}
