import AccordHTTP
import Testing

/// `ByteSearch` agrees with a plain search on every needle and haystack tried.
struct ByteSearchTests {
    @Test func findsWhatAPlainSearchFinds() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            // Few symbols, so that partial matches and repeats are common.
            let haystack = (0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...2, using: &generator) }
            let needle = (0..<Int.random(in: 1...4, using: &generator)).map { _ in UInt8.random(in: 0...2, using: &generator) }
            let plain = haystack.count < needle.count ? nil
                : (0...(haystack.count - needle.count)).first { Array(haystack[$0..<($0 + needle.count)]) == needle }.map { $0..<($0 + needle.count) }
            #expect(ByteSearch.firstRange(of: needle, in: haystack) == plain, "\(needle) in \(haystack)")
            #expect(ByteSearch.contains(needle[0], in: haystack) == haystack.contains(needle[0]))
            let start = Int.random(in: -1...(haystack.count + 1), using: &generator)
            let after = start < 0 ? nil : haystack.indices.first { $0 >= start && haystack[$0] == needle[0] }
            #expect(ByteSearch.firstOffset(of: needle[0], in: haystack, from: start) == after, "\(needle[0]) from \(start) in \(haystack)")
        }
        #expect(ByteSearch.firstRange(of: [], in: [1]) == 0..<0)
        #expect(ByteSearch.firstRange(of: [1], in: []) == nil)
        #expect(!ByteSearch.contains(0x0A, in: []))
    }
}
