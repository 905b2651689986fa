import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to a Unix-domain socket a user named as an output file: connected to and sent to (a stream socket, else a
/// datagram one), as `socat - UNIX-CONNECT:PATH` would, since a socket cannot be opened like a file.
enum UserFileSocket {
    /// Connects to the socket at `target` and sends `data`; errors name `path`, the name the user gave.
    static func send(_ data: Data, to target: String, named path: String) throws(UserFileError) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(target.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw UserFileError(path: path, reason: .notWritten("the socket's path is too long to connect to"))
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        var number: Int32 = 0
        for type in [streamType, datagramType] {
            let descriptor = socket(AF_UNIX, type, 0)
            guard descriptor >= 0 else { throw UserFileError(path: path, reason: UserFile.writingReason(errno)) }
            defer { _ = close(descriptor) }
            #if canImport(Darwin)
            // Darwin has no MSG_NOSIGNAL: a reader that goes away must not kill the process with SIGPIPE.
            var on: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
            #endif
            let connected = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard connected == 0 else {
                number = errno
                // A datagram socket refuses a stream connection with EPROTOTYPE: try it as what it is.
                if number == EPROTOTYPE { continue }
                throw UserFileError(path: path, reason: UserFile.writingReason(number))
            }
            try sendAll(data, descriptor, named: path)
            return
        }
        throw UserFileError(path: path, reason: UserFile.writingReason(number))
    }

    /// Sends every byte (a datagram socket takes them as one datagram).
    private static func sendAll(_ data: Data, _ descriptor: Int32, named path: String) throws(UserFileError) {
        let failure: Int32? = data.withUnsafeBytes { bytes in
            var offset = 0
            repeat {
                let sent = systemSend(
                    descriptor,
                    bytes.baseAddress?.advanced(by: offset),
                    bytes.count - offset,
                    sendFlags
                )
                if sent >= 0 {
                    offset += sent
                } else if errno != EINTR {
                    return errno
                }
            } while offset < bytes.count
            return nil
        }
        if let failure { throw UserFileError(path: path, reason: UserFile.writingReason(failure)) }
    }

    #if canImport(Darwin)
    private static let streamType = SOCK_STREAM
    private static let datagramType = SOCK_DGRAM
    private static let sendFlags: Int32 = 0
    #else
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    private static let datagramType = Int32(SOCK_DGRAM.rawValue)
    private static let sendFlags = Int32(MSG_NOSIGNAL)
    #endif
}

// The system call, out of reach of `UserFileSocket.send`, which shadows it inside the type.
private func systemSend(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(descriptor, buffer, count, flags)
}
