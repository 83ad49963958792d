import AccordSync
import AccordTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TongbanAPI

/// A call of the generated `URLSessionTransport` cancelled just as its answer arrives — a
/// client timeout is such a cancellation — ends, on every kind of exchange. On Linux,
/// FoundationNetworking's own `data(for:)` can deadlock there, for good: the session's
/// work queue waits on the task's status lock that the cancelling thread holds.
@Suite(.serialized) struct TransportCancellationTests {
    /// The kinds of exchange the transport makes.
    enum Exchange: String, CaseIterable, CustomTestStringConvertible {
        case send, sendRefresh, upload, open

        var testDescription: String { rawValue }

        func run(_ transport: URLSessionTransport, _ request: URLRequest, file: URL) async throws {
            switch self {
            case .send: _ = try await transport.send(request)
            case .sendRefresh: _ = try await transport.sendRefresh(request)
            case .upload: _ = try await transport.upload(request, fromFile: file)
            case .open: _ = try await transport.open(request)
            }
        }
    }

    /// Calls cancelled of each kind (the transport that cancelled its session tasks hung
    /// in its first run of 200 each, on send and on open).
    static let rounds = 100

    @Test(arguments: Exchange.allCases) func aCallCancelledAsItsAnswerArrivesEnds(_ exchange: Exchange) async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let transport = URLSessionTransport()
        let request = {
            var request = URLRequest(url: URL(string: server.baseURL + "/__accord/health")!)
            request.httpMethod = exchange == .upload ? "POST" : "GET"
            return request
        }()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("accord-cancel-\(UUID().uuidString)")
        try Data("body".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        // How long an answer takes here and now (the median of five; a loaded machine
        // answers slower): the cancels are spread over twice that, so that many land as
        // the answer arrives.
        var times: [Duration] = []
        for _ in 0..<5 {
            let start = ContinuousClock.now
            try await exchange.run(transport, request, file: file)
            times.append(ContinuousClock.now - start)
        }
        let answerTime = times.sorted()[2]
        var answered = 0
        for round in 0..<Self.rounds {
            let ended = Locked((done: false, failed: false))
            let call = Task {
                do {
                    try await exchange.run(transport, request, file: file)
                    ended.withLock { $0.done = true }
                } catch {
                    ended.withLock { $0 = (true, true) }
                }
            }
            // The cancel comes from a thread of its own: if it deadlocks, that thread
            // stays stuck, not one the tests run on.
            let delay = Double.random(in: 0...2) * (Double(answerTime.components.seconds) + Double(answerTime.components.attoseconds) / 1e18)
            Thread.detachNewThread {
                Thread.sleep(forTimeInterval: delay)
                call.cancel()
            }
            // The deadlock is for good; a call that ends late is not it. Under ThreadSanitizer
            // with every suite running, an answer took 1.5 s, and this loop and the call share
            // a cooperative pool that other suites' blocking calls can hold up: a round of CI
            // found its call not ended 10 s after it began. So a call is hung after 60 s, and
            // a round that took over 10 s is told in the log.
            let start = ContinuousClock.now
            while !ended.withLock({ $0.done }) && ContinuousClock.now - start < .seconds(60) { try await Task.sleep(for: .milliseconds(2)) }
            let outcome = ended.withLock { $0 }
            try #require(outcome.done, "round \(round): the cancelled \(exchange) call has not ended 60 s later")
            let took = ContinuousClock.now - start
            if took > .seconds(10) { print("\(exchange): round \(round) ended \(took) after it began") }
            if !outcome.failed { answered += 1 }
        }
        // Which side of the race each round fell on, for the log: both sides were met when
        // neither figure is 0.
        print("\(exchange): \(answered) of \(Self.rounds) answered before their cancel (an answer took \(answerTime))")
    }
}
