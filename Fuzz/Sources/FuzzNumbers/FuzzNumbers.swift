import AccordContract
import AccordJSON
import AccordMockState
import AccordMocksFormat
import Foundation

private let contract: Contract = {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    guard let contract = ContractLoader().load(directory: repository.appendingPathComponent("contracts").path).contract else {
        fatalError("the repository's contracts do not load")
    }
    return contract
}()

/// Text from a request, a rule or a flag through every number parser: each answers a
/// bounded value or refuses, never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNumbers(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let text = String(decoding: bytes, as: UTF8.self)
    let codes = contract.service.codes
    if let seconds = DurationText.seconds(text), abs(seconds) > DurationText.maxSeconds { fatalError("unbounded: \(text)") }
    if let milliseconds = DurationText.milliseconds(text), !(0...DurationText.maxMilliseconds).contains(milliseconds) {
        fatalError("unbounded: \(text)")
    }
    _ = try? Injection(parsing: text, codes: codes)
    _ = try? InjectionRule(parsing: text, codes: codes)
    if let body = try? JSONReader.read(bytes) { _ = try? InjectionRule(json: body, contract: contract) }
    let clock = MockClock(wall: 1_796_025_600)
    if let seconds = DurationText.seconds(text) {
        try? clock.advance(by: Int64(seconds))
        _ = clock.now
    }
    return 0
}
