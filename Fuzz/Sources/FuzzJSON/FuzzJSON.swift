import AccordJSON

/// Arbitrary bytes through the JSON reader; what it accepts must survive the writer
/// and a second read unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let value = try? JSONReader.read(UnsafeBufferPointer(start: data, count: size)) else { return 0 }
    let written = JSONWriter.bytes(value)
    guard let again = try? JSONReader.read(written) else {
        fatalError("the writer produced JSON the reader refuses: \(String(decoding: written, as: UTF8.self))")
    }
    // Doubles may print shorter than they were written; compare what the writer makes of both.
    if JSONWriter.bytes(again) != written {
        fatalError("a round trip changed the value: \(String(decoding: written, as: UTF8.self))")
    }
    return 0
}
