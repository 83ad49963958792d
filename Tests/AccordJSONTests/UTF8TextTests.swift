import AccordJSON
import Testing

/// Scalar counts as the standard library's generic form gives them.
@Suite struct UTF8TextTests {
    static let texts = ["", "a", "b", "ab", "aa", "a\u{0}", "Z", "_", "é", "e\u{301}", "ä", "中", "😀", "😀a", "ﬀ", "\u{7F}", "long key name", "long key"]

    @Test func scalarCountIsTheNumberOfUnicodeScalars() {
        for text in Self.texts + [String(repeating: "é😀中a", count: 40)] {
            #expect(UTF8Text.scalarCount(text) == text.unicodeScalars.count, "\(text.debugDescription)")
        }
        #expect(UTF8Text.scalarCount("e\u{301}") == 2, "a combining mark is a scalar of its own")
    }
}
