import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain TCP connection to the server, for bytes URLSession would never send.
public final class RawConnection {
    private let socket: Int32

    /// - Parameters:
    ///   - source: the loopback address to connect from (127.0.0.2 is another peer to the server).
    ///   - timeout: how long a read waits.
    public init(port: UInt16, from source: String = "127.0.0.1", timeout: Int = 5) throws {
        socket = Sockets.tcp()
        if source != "127.0.0.1" {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            _ = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(socket) }

    /// Stops sending (a half-close): the server sees the end of the request stream.
    public func closeWriting() { shutdown(socket, Int32(SHUT_WR)) }

    public func send(_ text: String) { send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Sockets.send(socket, $0) }
    }

    /// Reads what arrives until the peer closes, `until` holds, or the read times out.
    public func receive(until done: (String) -> Bool = { _ in false }) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
            if done(String(decoding: received, as: UTF8.self)) { break }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Reads one whole response framed by Content-Length (or until the peer closes or the read times out).
    public func receiveResponse() -> String {
        receive { text in
            guard let end = text.range(of: "\r\n\r\n") else { return false }
            let head = text[..<end.lowerBound].lowercased()
            guard let field = head.range(of: "content-length: ") else { return false }
            let length = Int(head[field.upperBound...].prefix { $0.isNumber }) ?? 0
            return text.utf8.count - text[..<end.upperBound].utf8.count >= length
        }
    }

    /// Whether bytes (or the end of the stream) arrive within `milliseconds`.
    public func isReadable(within milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) > 0
    }

    /// The first read: its bytes, or the error number when it failed (ECONNRESET for a reset).
    public func firstRead() -> (text: String, error: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = recv(socket, &buffer, buffer.count, 0)
        return count < 0 ? ("", errno) : (String(decoding: buffer[0..<count], as: UTF8.self), 0)
    }

    /// Reads chunks as they arrive, noting when each came.
    public func receiveTimed(until done: (String) -> Bool) -> [(Date, String)] {
        var chunks: [(Date, String)] = []
        var all = ""
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !done(all) {
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 { break }
            let text = String(decoding: buffer[0..<count], as: UTF8.self)
            chunks.append((Date(), text))
            all += text
        }
        return chunks
    }
}
