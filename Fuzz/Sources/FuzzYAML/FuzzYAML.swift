import AccordYAML

/// One YAML document from arbitrary bytes: a tree or diagnostics, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAML(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let document = YAMLParser.parse(Array(UnsafeBufferPointer(start: data, count: size)), file: "fuzz.yaml")
    _ = document.diagnostics.count
    return 0
}
