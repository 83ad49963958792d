import AccordHTTP
import AccordMock
import AccordServer
import AccordTesting
import Foundation
import Testing

/// The server waits on its sockets with epoll on Linux and poll where epoll is missing
/// (macOS). Both are exercised here: each loop answers, and only epoll opens epoll
/// descriptors (counted in a server process of its own: this process's count moves with
/// every other suite's servers running beside it). CI runs the whole end-to-end suite once more with `ACCORD_EVENT_LOOP=poll`,
/// the loop a Mac gets.
@Suite struct EventLoopTests {
    /// The descriptors of process `pid` that are epoll instances.
    private static func epollDescriptors(of pid: String) -> Int {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return entries.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == "anon_inode:[eventpoll]" }.count
    }

    /// A server of two workers on `loop` that answers `{}` to everything, started.
    private static func startedServer(on loop: HTTPServer.EventLoop) throws -> HTTPServer {
        var configuration = HTTPServer.Configuration(port: 0, threads: 2)
        configuration.eventLoop = loop
        let server = HTTPServer(configuration: configuration, handler: { _ in
            MockResponse(status: 200, body: .bytes(Array("{}".utf8)), summary: .init(code: 0, verdict: .ok))
        }, log: { _ in })
        try server.start()
        return server
    }

    /// Where /proc tells a process's descriptors (Linux, where epoll is).
    static let readsProc = FileManager.default.fileExists(atPath: "/proc/self/fd")

    @Test(.enabled(if: readsProc), arguments: [HTTPServer.EventLoop.epoll, .poll])
    func eachLoopAnswers(_ loop: HTTPServer.EventLoop) throws {
        let server = try Self.startedServer(on: loop)
        defer { _ = server.stop(grace: .milliseconds(100)) }
        let connection = try RawConnection(port: server.port)
        connection.send("GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(connection.receiveResponse().hasPrefix("HTTP/1.1 200"))
    }

    /// A stopping server takes no new connection: each is closed as it is accepted, on every
    /// loop. Closing the listening socket with `MHD_quiesce_daemon` instead raced libmicrohttpd
    /// 0.9.75's epoll workers and once aborted this suite (`Failed to remove listen FD from
    /// epoll set`); servers with a pool of workers are started, asked and stopped in a row.
    @Test(arguments: [HTTPServer.EventLoop.epoll, .poll])
    func serversStartAnswerAndStopInARow(_ loop: HTTPServer.EventLoop) throws {
        for _ in 0..<40 {
            let server = try Self.startedServer(on: loop)
            let connection = try RawConnection(port: server.port)
            connection.send("GET /x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(connection.receiveResponse().hasPrefix("HTTP/1.1 200"))
            #expect(server.stop(grace: .milliseconds(20)) == 0)
        }
    }

    /// `accord serve` runs on the loop it is given (the flag, else `ACCORD_EVENT_LOOP`,
    /// which the suite's poll run sets): on epoll each worker holds an epoll instance, on
    /// poll none does (Dispatch keeps its own either way).
    @Test(.enabled(if: readsProc)) func accordServeRunsOnTheLoopItIsGiven() throws {
        let onPoll = try ServerProcess(arguments: ["--quiet", "--event-loop", "poll", "--threads", "4"])
        let onEpoll = try ServerProcess(arguments: ["--quiet", "--event-loop", "epoll", "--threads", "4"])
        let (poll, epoll) = (Self.epollDescriptors(of: String(onPoll.processIdentifier)), Self.epollDescriptors(of: String(onEpoll.processIdentifier)))
        #expect(epoll >= poll + 4, "epoll instances: \(poll) on poll, \(epoll) on epoll")
    }

    @Test func anUnknownLoopIsAUsageError() throws {
        let outcome = try ExternalCommand.run(ServerProcess.executable.path, ["serve", "--event-loop", "kqueue", "--port", "0"])
        #expect(outcome.status == 2)
        #expect(outcome.errors.contains("'--event-loop' (or ACCORD_EVENT_LOOP) is 'auto', 'epoll' or 'poll', found 'kqueue'"), "\(outcome.errors)")
    }
}
