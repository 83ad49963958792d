import AccordHTTP
import AccordJSON
import AccordMock
import AccordMockState
import AccordSync
import Foundation

/// Where a test's requests go, as Hummingbird's test framework offers it: the engine
/// in this process (`router`), or a real `accord serve` process over a loopback socket
/// (`live`). One test body run on both shows the engine is the server: what the
/// transport adds (framing, headers, the socket) changes nothing a client sees.
public enum BackendMode: String, CaseIterable, Sendable, CustomStringConvertible {
    case router, live

    public var description: String { rawValue }
}

/// The repository's contracts and mocks served one way or the other, with a client that
/// signs each request as the seed app does.
public final class Backend: Sendable {
    public let mode: BackendMode
    private let engine: MockEngine?
    private let server: ServerProcess?
    private let nonce = Locked(0)

    public init(_ mode: BackendMode) throws {
        self.mode = mode
        switch mode {
        case .router:
            let outcome = MockProject.load(contracts: Repository.contracts, mocks: Repository.mocks)
            guard let project = outcome.project else { throw ServerProcess.LaunchError(description: "the repository's project does not load") }
            let state = MockState(nonceTTLSeconds: project.contract.service.signing.nonceTTLSeconds)
            engine = MockEngine(contract: project.contract, fixtures: project.fixtures, scenarios: project.scenarios,
                                collections: project.collections, state: state)
            server = nil
        case .live:
            engine = nil
            server = try ServerProcess(arguments: ["--quiet", "--no-reload"])
        }
    }

    /// What came back: the status, the headers (names lowercased), the body.
    public struct Answer: Sendable {
        public var status: Int
        public var headers: [(name: String, value: String)]
        public var body: String

        /// The body as JSON, if it is.
        public var json: JSONValue? { try? JSONReader.read(Array(body.utf8)) }
        /// The envelope's `code`.
        public var code: Int? { if case .int(let code)? = json?["code"] { code } else { nil } }

        public func header(_ name: String) -> String? {
            headers.first { $0.name == name.lowercased() }?.value
        }
    }

    /// Sends one request, signed with the contract's development app key (unless `signed`
    /// is false), with the service headers, a JSON body and the bearer token when given.
    public func send(_ method: String, _ target: String, body: String? = nil, bearer: String? = nil, headers extra: [(String, String)] = [],
                     signed: Bool = true) throws -> Answer {
        let number = nonce.withLock { value in
            value += 1
            return value
        }
        var headers = TestSigner.serviceHeaders
        if signed {
            headers += TestSigner.headers(target: target, body: body, timestamp: Int64(Date().timeIntervalSince1970),
                                          nonce: "\(mode)-\(number)-\(UUID().uuidString.prefix(8))")
        }
        if let bearer { headers.append(("Authorization", "Bearer \(bearer)")) }
        if body != nil { headers.append(("Content-Type", "application/json")) }
        headers += extra
        if let engine {
            let response = engine.handle(MockRequest(method: method, target: target, headers: headers, body: Array((body ?? "").utf8)))
            return Answer(status: response.status, headers: response.headers.map { (ASCII.lowercased($0.name), $0.value) },
                          body: String(decoding: response.bodyBytes, as: UTF8.self))
        }
        return try overSocket(method, target, headers: headers, body: body ?? "")
    }

    private func overSocket(_ method: String, _ target: String, headers: [(String, String)], body: String) throws -> Answer {
        guard let server else { throw ServerProcess.LaunchError(description: "no server") }
        let connection = try RawConnection(port: server.port)
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.utf8.count)\r\n\r\n"
        connection.send(head + body)
        let reply = connection.receive()
        guard let end = reply.range(of: "\r\n\r\n") else { throw ServerProcess.LaunchError(description: "no answer: \(reply.prefix(200))") }
        let lines = reply[..<end.lowerBound].components(separatedBy: "\r\n")
        guard let statusLine = lines.first, let status = Int(statusLine.split(separator: " ").dropFirst().first ?? "") else {
            throw ServerProcess.LaunchError(description: "no status line: \(reply.prefix(200))")
        }
        let fields = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var body = String(reply[end.upperBound...])
        if fields.contains(where: { $0.name == "transfer-encoding" && $0.value.lowercased() == "chunked" }) { body = Self.dechunked(body) }
        return Answer(status: status, headers: fields, body: body)
    }

    /// A chunked body's data (RFC 9112 §7.1): each `SIZE\r\nDATA\r\n` until the chunk of size 0.
    private static func dechunked(_ text: String) -> String {
        var rest = Substring(text).utf8
        var data: [UInt8] = []
        while let lineEnd = rest.firstRange(of: "\r\n".utf8),
              let size = Int(String(decoding: rest[..<lineEnd.lowerBound], as: UTF8.self).split(separator: ";")[0], radix: 16), size > 0 {
            let start = lineEnd.upperBound
            guard let stop = rest.index(start, offsetBy: size, limitedBy: rest.endIndex) else { break }
            data += rest[start..<stop]
            rest = rest[stop...].dropFirst(2)
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// A control call (`/__accord/…`), unsigned.
    public func control(_ method: String, _ path: String, body: String? = nil) throws -> Answer {
        try send(method, "/__accord/" + path, body: body, signed: false)
    }
}
