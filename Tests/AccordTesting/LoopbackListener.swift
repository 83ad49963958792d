#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listening TCP socket on a free loopback port, for stand-in servers that speak
/// something other than the HTTP the tests expect (or nothing at all).
public struct LoopbackListener: Sendable {
    public let socket: Int32
    public let port: UInt16

    public init() {
        let socket = Sockets.tcp()
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
        listen(socket, 8)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) } }
        self.socket = socket
        port = UInt16(bigEndian: address.sin_port)
    }

    /// Stops listening and closes the socket.
    public func close() {
        shutdown(socket, Int32(SHUT_RDWR))
        Sockets.close(socket)
    }
}
