import AccordMock
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

/// One request from bytes: the first line is the method, the second the target, then
/// `name: value` header lines up to an empty line, then the body. The first byte's low
/// bit picks the engine, the second the peer (loopback or not).
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
    return 0
}
