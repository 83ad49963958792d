import AccordCrypto
import AccordJSON
import Testing

/// A signature's hex digits read back into the bytes they spell, and nothing else.
struct HexDigitsTests {
    @Test func readsBackWhatItWroteInEitherCase() {
        var generator = SystemRandomNumberGenerator()
        for count in 0...40 {
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let lowercase = Hex.lowercase(bytes)
            #expect(Digest.bytes(fromHex: lowercase) == bytes)
            #expect(Digest.bytes(fromHex: lowercase.uppercased()) == bytes)
        }
    }

    @Test(arguments: ["0", "abc", "0g", "g0", "00 ", " 00", "0x00", "ab\u{0}0", "éé", "٠٠"])
    func refusesAnythingButAnEvenRunOfHexDigits(text: String) {
        #expect(Digest.bytes(fromHex: text) == nil)
    }
}
