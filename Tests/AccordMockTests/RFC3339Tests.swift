import AccordHTTP
import AccordJSON
import Testing

/// Unix times as the journal, the mock clock and templates write them, and read back.
@Suite struct RFC3339Tests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00Z"),
        (1_796_112_000, "2026-12-01T08:00:00Z"),
        (951_782_400, "2000-02-29T00:00:00Z"),
        (-1, "1969-12-31T23:59:59Z"),
        (-62_135_596_800, "0001-01-01T00:00:00Z"),
        (253_402_300_799, "9999-12-31T23:59:59Z"),
        (253_402_300_800, "10000-01-01T00:00:00Z"),
        (-62_167_219_201, "-0001-12-31T23:59:59Z"),
    ])
    func formatsEveryYearItCanHold(seconds: Int64, text: String) {
        #expect(RFC3339.format(unixSeconds: seconds) == text)
        var output = ByteOutput(capacity: 8)
        output.append("time=")
        RFC3339.write(unixSeconds: seconds, into: &output)
        #expect(String(decoding: output.bytes(), as: UTF8.self) == "time=" + text)
    }

    @Test(arguments: [Int64(0), 1_796_112_000, 951_782_400, -1, -62_135_596_800, 253_402_300_799])
    func readsBackWhatItWrites(seconds: Int64) {
        #expect(RFC3339.unixSeconds(RFC3339.format(unixSeconds: seconds)) == seconds)
    }
}
