import AccordJSON
import Testing

/// `UTF8Order` sorts as the UTF-8 bytes do, where `String`'s own order does not.
struct UTF8OrderTests {
    @Test func agreesWithTheBytesOnEveryPairTried() {
        var generator = SystemRandomNumberGenerator()
        // Prefixes of one another, ASCII against multi-byte, and a precomposed letter
        // against its decomposed form (equal as `String`s, not as bytes).
        let pieces = ["a", "b", "A", "_", "é", "e\u{301}", "中", "😀", "\u{7F}", "\u{80}"]
        for _ in 0..<5_000 {
            let (lhs, rhs) = (Self.text(from: pieces, using: &generator), Self.text(from: pieces, using: &generator))
            #expect(UTF8Order.precedes(lhs, rhs) == Array(lhs.utf8).lexicographicallyPrecedes(Array(rhs.utf8)),
                    "\(Array(lhs.utf8)) against \(Array(rhs.utf8))")
        }
        #expect(UTF8Order.precedes("e\u{301}", "é") && !UTF8Order.precedes("é", "e\u{301}") && "e\u{301}" == "é")
        #expect(UTF8Order.precedes("Z", "a") && UTF8Order.precedes("ab", "abc") && !UTF8Order.precedes("abc", "abc"))
        #expect(UTF8Order.precedes("", "a") && !UTF8Order.precedes("", ""))
        // Bridged or not, a string longer than the small form is read where it is too.
        let long = String(repeating: "中", count: 40)
        #expect(UTF8Order.precedes(long, long + "a") && !UTF8Order.precedes(long + "a", long))
    }

    private static func text(from pieces: [String], using generator: inout SystemRandomNumberGenerator) -> String {
        (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
    }
}
