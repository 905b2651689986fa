import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one place that opens, writes or creates a file or folder a user named (a manifest, a batch of links, a corpus,
/// a fixtures folder, an output file): it says why one cannot be used in a few plain words (``UserFileError``), never
/// with Foundation's error text, and reads and writes with the system's calls, so a folder, a device or a file that
/// vanishes never traps.
///
/// Regular files and pipes (a FIFO, `<(command)`) are read; folders, devices and sockets are refused before they are
/// opened. Writing (``write(_:to:)-(Data,_)``) replaces a regular file atomically, keeping its mode, follows a
/// symbolic link to its target, writes through a device, FIFO or socket, and refuses a folder.
public enum UserFile {
    /// The whole content of the file at `path`, at most `maximumBytes` (more is ``UserFileError/Reason/tooLarge(_:limit:)``);
    /// `allowsEmpty` false refuses an empty file.
    public static func read(
        _ path: String,
        maximumBytes: Int = Int.max,
        allowsEmpty: Bool = false
    ) throws(UserFileError) -> Data {
        let reader = try open(path)
        defer { reader.close() }
        var data = Data()
        while let chunk = try reader.read(maximumCount: 1 << 16) {
            data.append(chunk)
            guard data.count <= maximumBytes else {
                throw UserFileError(path: path, reason: .tooLarge(data.count, limit: maximumBytes))
            }
        }
        if data.isEmpty && !allowsEmpty { throw UserFileError(path: path, reason: .empty) }
        return data
    }

    /// The file at `path`, open for reading piece by piece (a batch read line by line as it arrives).
    public static func open(_ path: String) throws(UserFileError) -> Reader {
        // Checked before opening: opening a device can block or have effects.
        try requireReadable(path, kind: .file)
        let descriptor = systemOpen(path)
        guard descriptor >= 0 else { throw UserFileError(path: path, reason: Self.reason(errno)) }
        // Checked again on what was opened, in case the path changed in between.
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let reason = Self.reason(errno)
            _ = systemClose(descriptor)
            throw UserFileError(path: path, reason: reason)
        }
        if let refusal = Self.refusal(mode: status.st_mode, for: .file) {
            _ = systemClose(descriptor)
            throw UserFileError(path: path, reason: refusal)
        }
        return Reader(descriptor: descriptor, path: path)
    }

    /// Standard input, read as ``open(_:)`` reads a file (named `-` in errors).
    public static func standardInput() -> Reader {
        Reader(descriptor: 0, path: "-", closes: false)
    }

    /// Throws unless `path` is a file the user may read (one that another library opens itself, a database).
    public static func requireFile(_ path: String) throws(UserFileError) {
        try requireReadable(path, kind: .file)
    }

    /// Throws unless `path` is a folder the user may read (a fixtures folder, a catalog).
    public static func requireDirectory(_ path: String) throws(UserFileError) {
        try requireReadable(path, kind: .directory)
    }

    private enum Kind { case file, directory }

    private static func requireReadable(_ path: String, kind: Kind) throws(UserFileError) {
        guard !path.isEmpty else { throw UserFileError(path: path, reason: .doesNotExist) }
        var status = stat()
        guard stat(path, &status) == 0 else { throw UserFileError(path: path, reason: Self.reason(errno)) }
        if let refusal = refusal(mode: status.st_mode, for: kind) { throw UserFileError(path: path, reason: refusal) }
        guard access(path, R_OK | (kind == .directory ? X_OK : 0)) == 0 else {
            throw UserFileError(path: path, reason: Self.reason(errno))
        }
    }

    /// Why a file of this mode is not what is needed, or nil when it is.
    private static func refusal(mode: mode_t, for kind: Kind) -> UserFileError.Reason? {
        let type = mode & S_IFMT
        switch (kind, type) {
        case (.file, S_IFREG), (.file, S_IFIFO), (.directory, S_IFDIR): return nil
        case (.file, S_IFDIR): return .isDirectory
        case (.directory, S_IFREG): return .notDirectory
        case (_, S_IFCHR): return .notRegular("a character device")
        case (_, S_IFBLK): return .notRegular("a block device")
        case (_, S_IFSOCK): return .notRegular("a socket")
        case (.directory, _): return .notDirectory
        default: return .notRegular("not a file")
        }
    }

    /// The reason for a system error number.
    static func reason(_ number: Int32) -> UserFileError.Reason {
        switch number {
        case ENOENT, ENOTDIR: .doesNotExist
        case EACCES, EPERM: .notReadable
        case EISDIR: .isDirectory
        default: .failed(String(cString: strerror(number)).lowercased())
        }
    }

    /// An open file read piece by piece; ``close()`` ends it.
    public final class Reader: @unchecked Sendable {
        private let descriptor: Int32
        private let closes: Bool
        /// The path, as named in errors.
        public let path: String

        init(descriptor: Int32, path: String, closes: Bool = true) {
            self.descriptor = descriptor
            self.path = path
            self.closes = closes
        }

        /// The next bytes, as soon as any are available (at most `maximumCount`), or nil at the end.
        public func read(maximumCount: Int) throws(UserFileError) -> Data? {
            var buffer = [UInt8](repeating: 0, count: maximumCount)
            while true {
                let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
                if count > 0 { return Data(buffer[0..<count]) }
                if count == 0 { return nil }
                if errno == EINTR { continue }
                throw UserFileError(path: path, reason: UserFile.reason(errno))
            }
        }

        /// Closes the file (standard input stays open).
        public func close() {
            if closes { _ = systemClose(descriptor) }
        }
    }
}

/// Why a file or folder a user named cannot be used: `PATH: error: the WHAT REASON` (``message(for:)``).
public struct UserFileError: Error, Sendable, Equatable {
    /// Why, in a few words.
    public enum Reason: Sendable, Equatable {
        /// Nothing at the path (or part of it is not a folder).
        case doesNotExist
        /// A folder where a file was expected.
        case isDirectory
        /// A file where a folder was expected.
        case notDirectory
        /// A device, a socket or another kind of file that is not read as a file.
        case notRegular(String)
        /// The user may not read it.
        case notReadable
        /// An empty file where content was expected.
        case empty
        /// More bytes than the limit.
        case tooLarge(Int, limit: Int)
        /// The system refused in another way (its own words).
        case failed(String)
        /// A file to write whose folder does not exist.
        case folderDoesNotExist
        /// A path with a file where a folder must be (`out.json/x`).
        case pathThroughFile
        /// The user may not write it (or create a file in its folder).
        case notWritable
        /// It is on a file system mounted read-only.
        case readOnly
        /// The disk (or the user's quota) is full.
        case diskFull
        /// Writing failed in another way (the system's own words).
        case notWritten(String)

        /// The predicate: `is a directory`, `does not exist` …
        public var description: String {
            switch self {
            case .doesNotExist: "does not exist"
            case .isDirectory: "is a directory, not a file"
            case .notDirectory: "is a file, not a directory"
            case .notRegular(let kind): "is not a regular file (\(kind))"
            case .notReadable: "is not readable (no permission)"
            case .empty: "is empty"
            case .tooLarge(let count, let limit): "has more than \(limit) bytes (at least \(count))"
            case .failed(let text): "cannot be read (\(text))"
            case .folderDoesNotExist: "cannot be written: its folder does not exist"
            case .pathThroughFile: "cannot be written: part of its path is a file, not a folder"
            case .notWritable: "cannot be written: no permission"
            case .readOnly: "cannot be written: the file system is read-only"
            case .diskFull: "cannot be written: the disk is full"
            case .notWritten(let text): "cannot be written (\(text))"
            }
        }
    }

    /// The path as the user gave it.
    public var path: String
    /// Why.
    public var reason: Reason

    /// Creates an error.
    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// `the WHAT REASON`: `the manifest is a directory, not a file`.
    public func sentence(_ what: String) -> String {
        "the \(what) \(reason.description)"
    }

    /// `PATH: error: the WHAT REASON`.
    public func message(for what: String) -> String {
        "\(path): error: \(sentence(what))"
    }
}

// The system calls, out of reach of `UserFile.open` and `Reader.read` and `close`, which shadow them inside the types.
private func systemOpen(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_CLOEXEC)
}

private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func systemClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
