import AccordHTTP
import Testing

/// A request's headers: repeated names joined, looked up by lowercased name.
@Suite struct HTTPHeadersTests {
    @Test func repeatedNamesAreJoinedAndOthersKeptApartEvenWhenTheyLookAlike() {
        // `accept` and `alerts` have the same length and first byte; `ab` and `ac` too.
        var headers = HTTPHeaders()
        for (name, value) in [("Accept", "a/1"), ("alerts", "x"), ("ab", "1"), ("ac", "2"), ("ACCEPT", "a/2"), ("ab", "3"), ("b", "")] {
            headers.add(name, value)
        }
        #expect(headers.fields.map { "\($0.name)=\($0.value)" } == ["accept=a/1, a/2", "alerts=x", "ab=1, 3", "ac=2", "b="])
        #expect(headers["accept"] == "a/1, a/2")
        #expect(headers["ac"] == "2")
        #expect(headers["a"] == nil)
    }

    @Test func aValueSetByNameReplacesTheHeaderAndIsJoinedByALaterAdd() {
        var headers = HTTPHeaders([("X-Nonce", "n1"), ("X-Sign", "s")])
        headers["x-nonce"] = "n2"
        headers.add("X-Nonce", "n3")
        headers["x-trace"] = "t"
        headers.add("x-trace", "u")
        #expect(headers.fields.map { "\($0.name)=\($0.value)" } == ["x-sign=s", "x-nonce=n2, n3", "x-trace=t, u"])
        headers["x-sign"] = nil
        #expect(headers["x-sign"] == nil)
    }
}
