import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension UserFile {
    /// Writes `data` to the file a user named (`-o`, `--junit`, a saved catalog, a fixture), the way the user expects
    /// of that kind of file, and says why in a few words (``UserFileError``) when it cannot:
    ///
    /// - a **regular file** (or none yet) is replaced atomically: the bytes go to a temporary file in the same
    ///   folder, which is renamed over it, so a failure never leaves half a file behind. An existing file keeps its
    ///   mode (`600` stays `600`) and, where the system permits, its owner and group; a new one gets the usual
    ///   `666` less the umask. A file the user may write in a folder they may not is written in place instead;
    /// - a **symbolic link** is followed (links to links too) and its target is replaced; the link stays a link;
    /// - a **device, FIFO or socket** is written through: opened (a socket connected) and written, never renamed
    ///   over, so `-o /dev/null` discards and `-o FIFO` feeds its reader;
    /// - a **folder** is refused (``UserFileError/Reason/isDirectory``), and nothing is written.
    public static func write(_ data: Data, to path: String) throws(UserFileError) {
        guard !path.isEmpty else { throw UserFileError(path: path, reason: .doesNotExist) }
        let target = try followingLinks(path)
        var status = stat()
        guard stat(target, &status) == 0 else {
            let number = errno
            guard number == ENOENT else { throw UserFileError(path: path, reason: writingReason(number)) }
            return try replace(target, with: data, keeping: nil, named: path)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: try replace(target, with: data, keeping: status, named: path)
        case S_IFDIR: throw UserFileError(path: path, reason: .isDirectory)
        case S_IFSOCK: try UserFileSocket.send(data, to: target, named: path)
        default: try writeThrough(target, data, truncating: false, named: path)
        }
    }

    /// Writes `text` as UTF-8 (``write(_:to:)-(Data,_)``).
    public static func write(_ text: String, to path: String) throws(UserFileError) {
        try write(Data(text.utf8), to: path)
    }

    /// Creates the folder at `path` and the folders missing above it (a fixtures folder, a download cache, the
    /// choices store's folder); a folder already there is fine. Something other than a folder in the way is
    /// ``UserFileError/Reason/notDirectory``.
    public static func createDirectory(_ path: String) throws(UserFileError) {
        guard !path.isEmpty else { throw UserFileError(path: path, reason: .doesNotExist) }
        var prefixes: [String] = []
        var current = path
        while true {
            var status = stat()
            if stat(current, &status) == 0 {
                guard status.st_mode & S_IFMT == S_IFDIR else { throw UserFileError(path: path, reason: .notDirectory) }
                break
            }
            guard errno == ENOENT else { throw UserFileError(path: path, reason: writingReason(errno)) }
            prefixes.append(current)
            let parent = folder(of: current)
            guard parent != current else { break }
            current = parent
        }
        for prefix in prefixes.reversed() where mkdir(prefix, 0o777) != 0 && errno != EEXIST {
            throw UserFileError(path: path, reason: writingReason(errno, creating: true))
        }
    }

    /// The path a chain of symbolic links at `path` ends at (`path` itself when it is not a link); a relative link
    /// is read from the folder of the link.
    static func followingLinks(_ path: String) throws(UserFileError) -> String {
        var current = path
        // As the kernel's own limit on links followed in one lookup.
        for _ in 0..<40 {
            var status = stat()
            guard lstat(current, &status) == 0, status.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { bytes in
                bytes.withMemoryRebound(to: CChar.self) { characters in
                    characters.baseAddress.map { readlink(current, $0, characters.count) } ?? -1
                }
            }
            guard count >= 0 else { throw UserFileError(path: path, reason: writingReason(errno)) }
            let target = String(decoding: buffer[0..<count], as: UTF8.self)
            current = target.hasPrefix("/") ? target : folder(of: current) + "/" + target
        }
        throw UserFileError(path: path, reason: writingReason(ELOOP))
    }

    /// The folder part of `path` (`.` for a bare name, `/` for a name at the root).
    static func folder(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let folder = trimmed[..<slash]
        return folder.isEmpty ? "/" : String(folder)
    }

    /// Replaces a regular file (or creates one) through a temporary file renamed over it; `existing` is the file's
    /// status, whose mode and owner the new file takes.
    private static func replace(
        _ target: String,
        with data: Data,
        keeping existing: stat?,
        named path: String
    ) throws(UserFileError) {
        let folder = folder(of: target)
        let name = target.split(separator: "/").last.map(String.init) ?? target
        let mode = existing.map { $0.st_mode & 0o7777 } ?? 0o666
        var temporary = ""
        var descriptor: Int32 = -1
        for _ in 0..<8 {
            let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
            temporary = "\(folder)/.\(name).\(suffix).tmp"
            descriptor = systemOpen(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else {
            let number = errno
            // A shared file the user may write, in a folder they may not: the file is all they can change.
            if existing != nil, number == EACCES || number == EPERM, access(target, W_OK) == 0 {
                return try writeThrough(target, data, truncating: true, named: path)
            }
            throw UserFileError(path: path, reason: writingReason(number, creating: true))
        }
        do throws(UserFileError) {
            try writeAll(data, to: descriptor, named: path)
            if let existing {
                // Owner first: changing it clears the set-user-ID and set-group-ID bits, which the mode then restores.
                // Only root may give a file away; anyone else keeps the new file as their own.
                if existing.st_uid != geteuid() || existing.st_gid != getegid() {
                    _ = fchown(descriptor, existing.st_uid, existing.st_gid)
                }
                _ = fchmod(descriptor, mode)
            }
            guard fsync(descriptor) == 0 || errno == EINVAL else {
                throw UserFileError(path: path, reason: writingReason(errno))
            }
        } catch {
            _ = close(descriptor)
            _ = unlink(temporary)
            throw error
        }
        _ = close(descriptor)
        guard rename(temporary, target) == 0 else {
            let number = errno
            _ = unlink(temporary)
            throw UserFileError(path: path, reason: writingReason(number))
        }
    }

    /// Opens `target` for writing and writes `data` into it (a device, a FIFO, or a file replaced in place).
    private static func writeThrough(
        _ target: String,
        _ data: Data,
        truncating: Bool,
        named path: String
    ) throws(UserFileError) {
        let descriptor = systemOpen(target, O_WRONLY | O_CLOEXEC | O_NOCTTY | (truncating ? O_TRUNC : 0), 0)
        guard descriptor >= 0 else { throw UserFileError(path: path, reason: writingReason(errno)) }
        defer { _ = close(descriptor) }
        try writeAll(data, to: descriptor, named: path)
    }

    /// Writes every byte, through short writes and interruptions.
    static func writeAll(_ data: Data, to descriptor: Int32, named path: String) throws(UserFileError) {
        let failure: Int32? = data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = systemWrite(descriptor, bytes.baseAddress?.advanced(by: offset), bytes.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return written < 0 ? errno : EIO
                }
            }
            return nil
        }
        if let failure { throw UserFileError(path: path, reason: writingReason(failure)) }
    }

    /// The reason for a system error number met while writing (`creating`: while making a file or folder, where a
    /// missing part of the path means the folder is missing).
    static func writingReason(_ number: Int32, creating: Bool = false) -> UserFileError.Reason {
        switch number {
        case ENOENT: creating ? .folderDoesNotExist : .doesNotExist
        case ENOTDIR: .pathThroughFile
        case EACCES, EPERM: .notWritable
        case EISDIR: .isDirectory
        case EROFS: .readOnly
        case ENOSPC, EDQUOT: .diskFull
        case ELOOP: .notWritten("too many symbolic links")
        default: .notWritten(String(cString: strerror(number)).lowercased())
        }
    }
}

// The system calls, out of reach of `UserFile.open` and `UserFile.write`, which shadow them inside the type.
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
