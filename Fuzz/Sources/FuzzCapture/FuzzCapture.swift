import AccordCapture

/// Arbitrary bytes as a capture: as a HAR file (the scanner that finds entries without
/// parsing the whole file, then each entry), and line by line as a `--record` journal.
/// Either may refuse the input with an error; neither may crash or hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCapture(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var entries = 0
    try? HARFile(bytes: bytes, path: "fuzz.har").forEach { exchange throws(CaptureError) in
        entries += 1
        _ = exchange.path
    }
    for (number, line) in bytes.split(separator: 0x0A).enumerated() {
        _ = try? JournalLine.exchange(line, origin: "fuzz.jsonl:\(number + 1)")
    }
    return 0
}
