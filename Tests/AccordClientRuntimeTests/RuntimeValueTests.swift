import AccordClientRuntime
import Foundation
import Testing

/// The runtime's value types as servers send them: times in RFC 3339 and the forms
/// servers write instead, and JSON numbers past what a `Double` holds exactly.
@Suite struct RuntimeValueTests {
    private func decode<Value: Decodable>(_ type: Value.Type, _ json: String) throws -> Value {
        try JSONDecoder().decode(type, from: Data(json.utf8))
    }

    /// RFC 3339 and what servers write instead, each naming 2026-11-30T00:00:00Z.
    @Test(arguments: ["2026-11-30T08:00:00+08:00", "2026-11-30T08:00:00+0800", "2026-11-30T08:00:00+08", "2026-11-30 08:00:00+08:00",
                      "2026-11-30T00:00:00Z", "2026-11-30T00:00:00", "2026-11-30 00:00:00", "2026-11-29T23:00:00.000-01:00"])
    func timeVariantsNameTheSameInstant(text: String) throws {
        let time = try #require(AccordDateTime(text: text))
        #expect(time.date == Date(timeIntervalSince1970: 1_795_996_800))
        #expect(time.text == text)
    }

    @Test(arguments: ["2026-11-30", "2026-11-30T08:00", "2026-11-30T08:00:00+8", "2026-11-30T08:00:00+08:0", "2026-11-30T25:00:00Z",
                      "2026-11-30T08:00:00Zjunk", "2026-02-30T08:00:00Z", ""])
    func notATime(text: String) {
        #expect(AccordDateTime(text: text) == nil)
    }

    @Test func integersPastTwoToTheFiftyThreeStayExact() throws {
        let value = try decode(AccordJSON.self, #"{"big":9007199254740993,"small":-1,"ratio":0.5}"#)
        #expect(value == .object(["big": .integer(9_007_199_254_740_993), "small": .integer(-1), "ratio": .number(0.5)]))
        let encoded = try JSONEncoder().encode(value)
        #expect(String(decoding: encoded, as: UTF8.self).contains("9007199254740993"))
    }

    /// A path of literal pieces and encoded parameters, as the generated endpoints join it:
    /// a parameter stays one segment whatever it holds.
    @Test func aJoinedPathKeepsEachParameterOneSegment() {
        typealias Page = Endpoint<AccordEmpty>
        #expect(Page.joinedPath("/rooms/", Page.segment("a/b c"), "/replies/", Page.segment(".."), "/x") == "/rooms/a%2Fb%20c/replies/%2E%2E/x")
        #expect(Page.joinedPath("/rooms/", Page.segment("中?#%")) == "/rooms/%E4%B8%AD%3F%23%25")
        #expect(Page.joinedPath("/") == "/")
    }
}
