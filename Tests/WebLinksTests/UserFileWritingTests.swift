import Foundation
import SwitchyardTestSupport
import Testing
import WebLinks

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `UserFile.write`: each kind of output target written the way a user expects, in a temporary folder of the test's
/// own (a device node made there with `mknod`, never the machine's `/dev/null`).
@Suite struct UserFileWritingTests {
    @Test func aNewFileGetsTheUsualModeAndNothingElseIsLeft() throws {
        let folder = try TemporaryFolder()
        try UserFile.write("new\n", to: folder.path("out.json"))
        #expect(try String(contentsOfFile: folder.path("out.json"), encoding: .utf8) == "new\n")
        #expect(SpecialFiles.mode(at: folder.path("out.json")) == S_IFREG | (0o666 & ~SpecialFiles.umask))
        #expect(folder.names == ["out.json"])
    }

    @Test func aRegularFileIsReplacedKeepingItsMode() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("old contents, longer than the new ones", named: "secret.json")
        #expect(chmod(path, 0o600) == 0)
        var before = stat()
        #expect(stat(path, &before) == 0)
        try UserFile.write("new", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        #expect(SpecialFiles.mode(at: path) == S_IFREG | 0o600)
        var after = stat()
        #expect(stat(path, &after) == 0)
        // Replaced, not rewritten in place: a reader holding the old file keeps reading the old contents.
        #expect(after.st_ino != before.st_ino)
        #expect(folder.names == ["secret.json"])
    }

    @Test func aFileKeepsItsOwnerWhenTheSystemPermits() throws {
        guard geteuid() == 0 else {
            try Test.cancel("only root may give a file to another user; as anyone else the new file is theirs")
        }
        let folder = try TemporaryFolder()
        let path = try folder.write("old", named: "theirs.json")
        #expect(chown(path, 4321, 4322) == 0)
        #expect(chmod(path, 0o640) == 0)
        try UserFile.write("new", to: path)
        #expect(SpecialFiles.owner(at: path)?.user == 4321)
        #expect(SpecialFiles.owner(at: path)?.group == 4322)
        #expect(SpecialFiles.mode(at: path) == S_IFREG | 0o640)
    }

    @Test func aSymbolicLinkIsFollowedAndItsTargetReplaced() throws {
        let folder = try TemporaryFolder()
        let target = try folder.write("old", named: "real.json")
        #expect(chmod(target, 0o600) == 0)
        // A relative link to a relative link: each read from its own folder.
        try FileManager.default.createDirectory(atPath: folder.path("links"), withIntermediateDirectories: false)
        #expect(symlink("../real.json", folder.path("links/first.json")) == 0)
        #expect(symlink("links/first.json", folder.path("link.json")) == 0)
        try UserFile.write("new", to: folder.path("link.json"))
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new")
        #expect(SpecialFiles.mode(at: target) == S_IFREG | 0o600)
        #expect(SpecialFiles.mode(at: folder.path("link.json")).map { $0 & S_IFMT } == S_IFLNK)
        #expect(SpecialFiles.mode(at: folder.path("links/first.json")).map { $0 & S_IFMT } == S_IFLNK)
        #expect(folder.names == ["link.json", "links", "real.json"])
    }

    @Test func aLinkToNothingCreatesItsTarget() throws {
        let folder = try TemporaryFolder()
        #expect(symlink("made.json", folder.path("link.json")) == 0)
        try UserFile.write("made", to: folder.path("link.json"))
        #expect(try String(contentsOfFile: folder.path("made.json"), encoding: .utf8) == "made")
        #expect(SpecialFiles.mode(at: folder.path("link.json")).map { $0 & S_IFMT } == S_IFLNK)
    }

    @Test func aLinkLoopIsRefusedInWords() throws {
        let folder = try TemporaryFolder()
        #expect(symlink("b", folder.path("a")) == 0)
        #expect(symlink("a", folder.path("b")) == 0)
        let error = #expect(throws: UserFileError.self) { try UserFile.write("x", to: folder.path("a")) }
        #expect(error?.reason == .notWritten("too many symbolic links"))
    }

    @Test func aFIFOIsWrittenThroughToItsReader() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("pipe")
        let reader = try FIFOReader(path: path)
        let text = String(repeating: "0123456789abcdef", count: 8192)
        try UserFile.write(text, to: path)
        #expect(reader.data().map { String(decoding: $0, as: UTF8.self) } == text)
        #expect(SpecialFiles.mode(at: path).map { $0 & S_IFMT } == S_IFIFO)
        #expect(folder.names == ["pipe"])
    }

    @Test func aDeviceIsWrittenThroughNotReplaced() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("null")
        if let reason = SpecialFiles.makeNullDevice(at: path) { try Test.cancel(Comment(rawValue: reason)) }
        try UserFile.write("discarded", to: path)
        #expect(SpecialFiles.mode(at: path).map { $0 & S_IFMT } == S_IFCHR)
        #expect(folder.names == ["null"])
        // Through a link too, as `-o out.json` where out.json points at a device.
        #expect(symlink("null", folder.path("out.json")) == 0)
        try UserFile.write("discarded", to: folder.path("out.json"))
        #expect(SpecialFiles.mode(at: path).map { $0 & S_IFMT } == S_IFCHR)
    }

    @Test func aSocketIsConnectedToAndWritten() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("out.sock")
        let reader = try SocketReader(path: path)
        try UserFile.write("through the socket", to: path)
        #expect(reader.data().map { String(decoding: $0, as: UTF8.self) } == "through the socket")
        #expect(SpecialFiles.mode(at: path).map { $0 & S_IFMT } == S_IFSOCK)
    }

    @Test func aFolderIsRefusedAndLeftAsItWas() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("out"), withIntermediateDirectories: false)
        let error = #expect(throws: UserFileError.self) { try UserFile.write("x", to: folder.path("out")) }
        #expect(
            error?.message(for: "output file")
                == "\(folder.path("out")): error: the output file is a directory, not a file"
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path("out")).isEmpty)
        #expect(folder.names == ["out"])
    }

    @Test(arguments: [
        ("missing/out.json", UserFileError.Reason.folderDoesNotExist),
        ("file.txt/out.json", .pathThroughFile),
    ])
    func aPathThatCannotHoldAFileSaysWhy(name: String, reason: UserFileError.Reason) throws {
        let folder = try TemporaryFolder()
        try folder.write("a file", named: "file.txt")
        let error = #expect(throws: UserFileError.self) { try UserFile.write("x", to: folder.path(name)) }
        #expect(error?.reason == reason)
        #expect(folder.names == ["file.txt"])
    }

    @Test func createDirectoryMakesTheMissingFoldersAndRefusesAFileInTheWay() throws {
        let folder = try TemporaryFolder()
        try UserFile.createDirectory(folder.path("a/b/c"))
        try UserFile.createDirectory(folder.path("a/b/c"))
        var isFolder: ObjCBool = false
        #expect(
            FileManager.default.fileExists(atPath: folder.path("a/b/c"), isDirectory: &isFolder) && isFolder.boolValue
        )
        try folder.write("a file", named: "file")
        let error = #expect(throws: UserFileError.self) { try UserFile.createDirectory(folder.path("file")) }
        #expect(error?.reason == .notDirectory)
        let through = #expect(throws: UserFileError.self) { try UserFile.createDirectory(folder.path("file/sub")) }
        #expect(through?.reason == .pathThroughFile)
    }
}
