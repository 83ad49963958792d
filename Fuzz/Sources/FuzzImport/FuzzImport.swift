import AccordDiagnostics
import AccordImport

/// Arbitrary bytes as an OpenAPI document through the whole import (reading, references, schemas,
/// operations, the examples' check, the rendering): every problem a diagnostic with a position, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImport(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let result = OpenAPIImport().run(document: bytes, path: "fuzz/openapi.yaml")
    var renderer = DiagnosticRenderer(readFile: { $0 == "fuzz/openapi.yaml" ? String(decoding: bytes, as: UTF8.self) : nil })
    for diagnostic in result.diagnostics { _ = renderer.render(diagnostic) }
    return 0
}
