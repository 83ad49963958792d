import AccordHTTP
import AccordJSON
import AccordSync
import Foundation
import Synchronization

/// One line per request — method, path, status, business code, latency, verdict —
/// appended to a buffer and written by a background thread, so logging never waits
/// on the terminal while a worker holds a request.
public final class AccessLog: Sendable {
    /// How each line is written.
    public enum Format: String, Sendable, CaseIterable {
        /// `GET /api/v1/signals/inbox 200 code=0 0.4ms ok signal.inbox example:default`;
        /// `problems=2` ends the line of a request or proxied answer that broke the contract.
        case text
        /// One JSON object per line.
        case json
    }

    private let format: Format
    private let buffer = Locked<[UInt8]>([])
    private let output: @Sendable ([UInt8]) -> Void
    private let running = Atomic<Bool>(true)

    /// - Parameter output: receives batches of complete lines (standard output by default).
    public init(format: Format, output: @escaping @Sendable ([UInt8]) -> Void = { FileHandle.standardOutput.write(Data($0)) }) {
        self.format = format
        self.output = output
        let thread = Thread { [weak self] in
            while let log = self, log.running.load(ordering: .relaxed) {
                log.flush()
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
        thread.name = "accord.access-log"
        thread.start()
    }

    /// Records one answered request.
    public func record(_ request: MockRequest, _ response: MockResponse, latencyMicroseconds: Int) {
        switch format {
        case .text:
            let line = textLine(request, response, latencyMicroseconds)
            line.withUnsafeBytes { bytes in buffer.withLock { $0.append(contentsOf: bytes) } }
        case .json:
            let line = jsonLine(request, response, latencyMicroseconds)
            buffer.withLock { $0 += line }
        }
    }

    /// Writes whatever is buffered now.
    public func flush() {
        let pending = buffer.withLock { buffer -> [UInt8] in
            defer { buffer.removeAll(keepingCapacity: true) }
            return buffer
        }
        if !pending.isEmpty { output(pending) }
    }

    /// Stops the background writer after a last flush.
    public func close() {
        running.store(false, ordering: .relaxed)
        flush()
    }

    /// `GET /api/v1/signals/inbox 200 code=0 0.4ms ok signal.inbox example:default`, written
    /// straight into one buffer.
    private func textLine(_ request: MockRequest, _ response: MockResponse, _ micros: Int) -> ByteOutput {
        let summary = response.summary
        var line = ByteOutput(capacity: 128)
        line.append(contentsOf: request.method)
        line.append(0x20)
        line.append(contentsOf: request.path)
        line.append(0x20)
        JSONWriter.writeInteger(response.status, into: &line)
        if let code = summary.code {
            line.append(" code=")
            JSONWriter.writeInteger(code, into: &line)
        }
        line.append(0x20)
        JSONWriter.writeInteger(micros / 1_000, into: &line)
        line.append(UInt8(ascii: "."))
        JSONWriter.writeInteger(micros % 1_000 / 100, into: &line)
        line.append("ms ")
        line.append(contentsOf: summary.verdict.rawValue)
        if let endpoint = summary.endpoint { line.append(0x20); line.append(contentsOf: endpoint) }
        if let source = summary.source { line.append(0x20); line.append(contentsOf: source) }
        if summary.problems > 0 {
            line.append(" problems=")
            JSONWriter.writeInteger(summary.problems, into: &line)
        }
        if let failure = summary.failure { line.append(" failure: "); line.append(contentsOf: failure) }
        line.append(0x0A)
        return line
    }

    /// The line as one JSON object.
    private func jsonLine(_ request: MockRequest, _ response: MockResponse, _ micros: Int) -> [UInt8] {
        let summary = response.summary
        var members: [JSONValue.Member] = [
            .init("time", .string(RFC3339.format(unixSeconds: Int64(Date().timeIntervalSince1970)))),
            .init("method", .string(request.method)), .init("path", .string(request.path)),
            .init("status", .int(response.status)),
        ]
        if let code = summary.code { members.append(.init("code", .int(code))) }
        members.append(.init("latency_ms", .double(Double(micros) / 1_000)))
        members.append(.init("verdict", .string(summary.verdict.rawValue)))
        if let endpoint = summary.endpoint { members.append(.init("endpoint", .string(endpoint))) }
        if let source = summary.source { members.append(.init("source", .string(source))) }
        if summary.problems > 0 { members.append(.init("problems", .int(summary.problems))) }
        if let failure = summary.failure { members.append(.init("failure", .string(failure))) }
        return JSONWriter.bytes(.object(members)) + [0x0A]
    }
}
