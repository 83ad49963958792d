import AccordJSON
import Testing

/// ``ByteOutput`` keeps every byte in order as it grows past its first room, by one byte
/// or by a run longer than twice its room, and hands back exactly what was written.
@Suite struct ByteOutputTests {
    @Test(arguments: [1, 7, 16, 1_024])
    func keepsEveryByteInOrderAsItGrows(capacity: Int) {
        var output = ByteOutput(capacity: capacity)
        var expected: [UInt8] = []
        for round in 0..<300 {
            let byte = UInt8(truncatingIfNeeded: round)
            output.append(byte)
            expected.append(byte)
            let run = (0..<(round % 70)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ round) }
            run.withUnsafeBufferPointer { output.append($0) }
            expected += run
            if round % 50 == 0 {
                output.append("{\"literal\":")
                expected += Array("{\"literal\":".utf8)
            }
        }
        #expect(output.count == expected.count)
        #expect(output.bytes() == expected)
    }

    @Test func anEmptyOutputGivesNoBytes() {
        var output = ByteOutput(capacity: 0)
        output.append(contentsOf: [])
        [UInt8]().withUnsafeBufferPointer { output.append($0) }
        #expect(output.bytes() == [])
    }

    @Test func writesAValueAsAnArrayDoes() throws {
        let value = try JSONReader.read(Array(#"{"a":[1,-2,3.5,true,false,null,"\u0001é\"\\"],"b":{"c":"中"}}"#.utf8))
        var output = ByteOutput(capacity: 2)
        JSONWriter.write(value, into: &output)
        #expect(output.bytes() == JSONWriter.bytes(value))
    }

    @Test func givesItsBytesAsText() {
        var output = ByteOutput(capacity: 4)
        output.append("code=中&x=")
        [UInt8]([0xff, 0x41]).withUnsafeBufferPointer { output.append($0) }
        #expect(output.string() == "code=中&x=\u{FFFD}A", "an invalid byte is repaired, as String(decoding:) does")
        #expect(ByteOutput(capacity: 0).string() == "")
    }
}
