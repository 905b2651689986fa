import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files that are not regular files, made in a test's own temporary folder (never the machine's `/dev`), with the
/// reader at their other end: what an output file may be (`-o /dev/null`, `-o FIFO`, a socket).
public enum SpecialFiles {
    /// Makes a character device at `path` with the numbers of the null device (1, 3), so writes to it are discarded
    /// as `/dev/null` discards them; nil when the system does not permit it (not root, or a container without
    /// `CAP_MKNOD`), with the reason to skip by.
    public static func makeNullDevice(at path: String) -> String? {
        #if os(Linux)
        // glibc's makedev(1, 3), a macro Swift does not import: small numbers are major << 8 | minor.
        guard mknod(path, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0 else {
            return "mknod is not permitted here (\(String(cString: strerror(errno)))): device nodes need root"
        }
        // As the real one: anyone may write to it (mknod's mode is reduced by the umask).
        _ = chmod(path, 0o666)
        return nil
        #else
        return "device nodes are made with Linux's device numbers only"
        #endif
    }

    /// The process's umask, read without changing it (Linux's `/proc/self/status`; 022 elsewhere).
    public static var umask: mode_t {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
        return line.flatMap { mode_t($0.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8) }
            ?? 0o022
    }

    /// The type and permission bits of what is at `path` (not following a link), or nil.
    public static func mode(at path: String) -> mode_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_mode : nil
    }

    /// Everything read from `descriptor` until its end (nothing for a descriptor below 0), then closes it.
    static func readToEnd(_ descriptor: Int32) -> Data {
        guard descriptor >= 0 else { return Data() }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            guard count > 0 else { return data }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    /// The owner and group of the file at `path`.
    public static func owner(at path: String) -> (user: uid_t, group: gid_t)? {
        var status = stat()
        return lstat(path, &status) == 0 ? (status.st_uid, status.st_gid) : nil
    }
}

/// The reading end of a FIFO made at a path: a thread opens it and reads until the writer closes it.
public final class FIFOReader: @unchecked Sendable {
    private let path: String
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var received = Data()

    /// Makes the FIFO at `path` and starts reading from it.
    public init(path: String) throws {
        self.path = path
        guard mkfifo(path, 0o600) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        Thread.detachNewThread { [self] in
            let descriptor = open(path, O_RDONLY)
            let data = SpecialFiles.readToEnd(descriptor)
            lock.withLock { received = data }
            done.signal()
        }
    }

    /// What was read once the writer closed the FIFO, or nil after `seconds` (the reader is then released).
    public func data(within seconds: Double = 30) -> Data? {
        guard done.wait(timeout: .now() + seconds) == .success else {
            // Opening the other end lets a reader still waiting in `open` go.
            let writer = open(path, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
            return nil
        }
        return lock.withLock { received }
    }
}

/// A Unix-domain stream socket listening at a path: a thread accepts one connection and reads until it is closed.
public final class SocketReader: @unchecked Sendable {
    private let descriptor: Int32
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var received = Data()

    /// Binds and listens at `path` (shorter than the system's limit on socket paths).
    public init(path: String) throws {
        #if canImport(Darwin)
        descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #else
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #endif
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes.prefix(buffer.count - 1))
        }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard descriptor >= 0, bound == 0, listen(descriptor, 1) == 0 else {
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
        Thread.detachNewThread { [self] in
            let data = SpecialFiles.readToEnd(accept(descriptor, nil, nil))
            lock.withLock { received = data }
            done.signal()
        }
    }

    /// What was read once the writer closed its connection, or nil after `seconds`.
    public func data(within seconds: Double = 30) -> Data? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return lock.withLock { received }
    }

    deinit {
        // Ends an `accept` still waiting.
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }
}
