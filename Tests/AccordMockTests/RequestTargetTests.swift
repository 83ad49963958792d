import AccordHTTP
import Testing

/// A request target splits into its path, still encoded, and its query, decoded, as a
/// plain reading of the bytes does.
struct RequestTargetTests {
    @Test(arguments: [
        ("/x", "/x", []),
        ("/x?", "/x", []),
        ("/signals/inbox?limit=20", "/signals/inbox", [["limit", "20"]]),
        ("/x?a=1&&b=&c", "/x", [["a", "1"], ["b", ""], ["c", ""]]),
        ("/x?q=a+b%20c%2Bd", "/x", [["q", "a b c+d"]]),
        ("/x?%E4%B8%AD=%e6%96%87", "/x", [["中", "文"]]),
        ("/x?a=%4&b=%zz&c=%", "/x", [["a", "%4"], ["b", "%zz"], ["c", "%"]]),
        ("/x?a=b=c&?=?&", "/x", [["a", "b=c"], ["?", "?"]]),
        ("/p%2Fq/中?x=%FF", "/p%2Fq/中", [["x", "\u{FFFD}"]]),
    ] as [(String, String, [[String]])])
    func splitsAndDecodes(target: String, path: String, query: [[String]]) {
        let request = MockRequest(method: "GET", target: target)
        #expect(request.target == target)
        #expect(request.path == path)
        #expect(request.query.map { [$0.name, $0.value] } == query)
        #expect(PercentDecoding.query(String(target.split(separator: "?", maxSplits: 1).dropFirst().first ?? "")).map { [$0.name, $0.value] } == query)
    }

    @Test func agreesWithAPlainReadingOfTheBytes() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "=", "&", "%", "4", "1", "f", "z", "+", "中", "?", "é", "\u{301}", "/"]
        for _ in 0..<3_000 {
            let target = "/" + (0..<Int.random(in: 0...16, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let request = MockRequest(method: "GET", target: target)
            let bytes = Array(target.utf8)
            let mark = bytes.firstIndex(of: UInt8(ascii: "?"))
            #expect(request.path == String(decoding: bytes[..<(mark ?? bytes.count)], as: UTF8.self), "\(target)")
            let expected = mark.map { Self.plainQuery(Array(bytes[($0 + 1)...])) } ?? []
            #expect(request.query.map { [$0.name, $0.value] } == expected, "\(target)")
        }
    }

    /// The query by the rule, one step at a time: pieces between `&`, the first `=` parts
    /// name from value, `%XX` and `+` decoded in each.
    private static func plainQuery(_ bytes: [UInt8]) -> [[String]] {
        bytes.split(separator: UInt8(ascii: "&")).map { piece in
            guard let equals = piece.firstIndex(of: UInt8(ascii: "=")) else { return [plainDecode(Array(piece)), ""] }
            return [plainDecode(Array(piece[..<equals])), plainDecode(Array(piece[(equals + 1)...]))]
        }
    }

    private static func plainDecode(_ bytes: [UInt8]) -> String {
        var decoded: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let high = hexDigit(bytes[index + 1]), let low = hexDigit(bytes[index + 2]) {
                decoded.append(high * 16 + low)
                index += 3
            } else {
                decoded.append(bytes[index] == UInt8(ascii: "+") ? UInt8(ascii: " ") : bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        let lowercased = (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte) ? byte + 0x20 : byte
        return Array("0123456789abcdef".utf8).firstIndex(of: lowercased).map(UInt8.init)
    }
}
