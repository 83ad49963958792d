import AccordContract
import AccordDiagnostics
import AccordValidation
import Foundation

/// The repository's service contract, beside which each input is loaded as a domain file.
private let service: ContractLoader.Source = {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    let path = repository.appendingPathComponent("contracts/service.yaml").path
    return ContractLoader.Source(path: path, bytes: Array(FileManager.default.contents(atPath: path) ?? Data()))
}()

/// A domain file from arbitrary bytes through loading, checking and rendering: every
/// problem a diagnostic with a position, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContract(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let outcome = ContractLint.check(ContractLoader().load([service, ContractLoader.Source(path: "fuzz.yaml", bytes: bytes)], directory: "fuzz"))
    var renderer = DiagnosticRenderer(readFile: { $0 == "fuzz.yaml" ? String(decoding: bytes, as: UTF8.self) : nil })
    for diagnostic in outcome.diagnostics { _ = renderer.render(diagnostic) }
    return 0
}
