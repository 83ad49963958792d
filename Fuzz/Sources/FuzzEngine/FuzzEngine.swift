import AccordHTTP
import AccordMock
import AccordMockState
import Foundation

/// The repository's contracts and fixtures, loaded once; two engines over one state:
/// one that checks signatures, one that does not, so that fuzzed requests also reach
/// validation, injection and the answers.
private let engines: [MockEngine] = {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let outcome = MockProject.load(contracts: repository.appendingPathComponent("contracts").path,
                                   mocks: repository.appendingPathComponent("mocks").path)
    guard let project = outcome.project else { fatalError("the repository's contracts or mocks do not load") }
    let state = MockState(clock: MockClock(wall: 1_796_025_600), nonceTTLSeconds: 600)
    return [true, false].map { signing in
        MockEngine(contract: project.contract, fixtures: project.fixtures, scenarios: project.scenarios,
                   options: MockOptions(verifiesSignatures: signing), state: state)
    }
}()

/// The proxy's gate over each engine, strict and reporting in turn.
private let gates: [ForwardingGate] = engines.map { ForwardingGate(engine: $0, mode: .report) }
    + engines.map { ForwardingGate(engine: $0, mode: .strict) }

/// One request from bytes: the first line is the method, the second the target, then
/// `name: value` header lines up to an empty line, then the body. The first byte's low
/// bit picks the engine, the second the peer (loopback or not). The same request then
/// meets the proxy's gate (the first byte's second bit picks strict mode), and a
/// forwarded one gets its own body back as the upstream's answer, with a status and
/// media type from the second byte, to be checked, spoiled by any injected fault, and
/// recorded.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEngine(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard bytes.count >= 2 else { return 0 }
    let engine = engines[Int(bytes[0] & 1)]
    var lines = bytes.dropFirst(2).split(separator: 0x0A, maxSplits: 64, omittingEmptySubsequences: false)[...]
    let method = lines.popFirst().map { String(decoding: $0, as: UTF8.self) } ?? "GET"
    let target = lines.popFirst().map { String(decoding: $0, as: UTF8.self) } ?? "/"
    var headers: [(String, String)] = []
    while let line = lines.popFirst(), !line.isEmpty {
        let text = String(decoding: line, as: UTF8.self)
        let parts = text.split(separator: ":", maxSplits: 1)
        headers.append((String(parts.first ?? ""), parts.count > 1 ? String(parts[1].drop { $0 == " " }) : ""))
    }
    let body = Array(lines.joined(separator: [0x0A]))
    var request = MockRequest(method: method, target: target, headers: headers, body: body)
    request.isFromLoopback = bytes[1] & 1 == 0
    _ = engine.handle(request)
    let gate = gates[Int(bytes[0] & 1) + (bytes[0] & 2 == 0 ? 0 : 2)]
    if case .forward(let forwarding) = gate.admit(request) {
        let statuses = [200, 200, 302, 400, 401, 404, 500, 503]
        let types = ["application/json", "text/event-stream", "text/html", "application/json; charset=utf-8"]
        let answer = MockResponse(status: statuses[Int(bytes[1] >> 1) % statuses.count],
                                  headers: [("Content-Type", types[Int(bytes[1] >> 4) % types.count])], body: .bytes(body),
                                  summary: .init(source: "upstream", verdict: .ok))
        let check = gate.check(answer, for: forwarding)
        gate.record(gate.prepare(answer, for: forwarding), for: forwarding, check: check)
    }
    return 0
}
