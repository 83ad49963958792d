import AccordHTTP
import AccordJSON
import AccordMockState
import Testing

/// The in-memory journal keeps each entry packed into one buffer: every member comes back
/// as it was filed, text byte for byte and nil apart from empty.
struct PackedEntryTests {
    @Test func everyMemberComesBackAsFiled() {
        var entry = JournalEntry(time: -5, wallTime: Int64.max, method: "PATCH", path: "/api/v1/用户/%2F é\u{0341}", endpoint: "user.update",
                                 parameters: [("id", "a b"), ("empty", "")], query: [("q", "\"引号\"\\"), ("q", "second"), ("", "")],
                                 body: .json(.object([.init("nickname", .string("林间小鹿"))])),
                                 headers: HTTPHeaders([("authorization", "Bearer at_1"), ("x-nonce", String(repeating: "n", count: 300)), ("x-emoji", "👩‍👩‍👧")]),
                                 session: "user:10086", user: 0, status: 599, code: Int.min, answer: "", injected: "rule:3", verdict: .badSignature,
                                 replica: "host-1", problems: [JournalEntry.Problem(side: .request, pointer: "/body/nickname", message: "too long")],
                                 response: JournalEntry.Response(.bytes(Array(#"{"code":0}"#.utf8)), isCompactJSON: true),
                                 sentMicroseconds: 1, answeredMicroseconds: -1, tokenTag: "t_1", fault: "reset")
        entry.sequence = 42
        let unpacked = PackedEntry(entry).entry
        #expect(String(decoding: unpacked.bytes, as: UTF8.self) == String(decoding: entry.bytes, as: UTF8.self))
        #expect(unpacked.headers.fields.map { [$0.name, $0.value] } == entry.headers.fields.map { [$0.name, $0.value] })  // not masked
        #expect(unpacked.parameters.map { [$0.name, $0.value] } == [["id", "a b"], ["empty", ""]])
        #expect(unpacked.query.map { [$0.name, $0.value] } == [["q", "\"引号\"\\"], ["q", "second"], ["", ""]])
        #expect(unpacked.answer == "" && unpacked.code == Int.min && unpacked.user == 0 && unpacked.verdict == .badSignature)
    }

    @Test func absentMembersStayAbsent() {
        var entry = JournalEntry(time: 0, wallTime: 0, method: "GET", path: "/", session: "", status: 404, verdict: .noRoute)
        entry.sequence = 1
        var packed = PackedEntry(entry)
        packed.number(7)
        let unpacked = packed.entry
        #expect(unpacked.sequence == 7)
        #expect(unpacked.endpoint == nil && unpacked.user == nil && unpacked.code == nil && unpacked.answer == nil)
        #expect(unpacked.injected == nil && unpacked.replica == nil && unpacked.tokenTag == nil && unpacked.fault == nil)
        #expect(unpacked.sentMicroseconds == nil && unpacked.answeredMicroseconds == nil && unpacked.body == nil && unpacked.response == nil)
        #expect(unpacked.headers.fields.isEmpty && unpacked.query.isEmpty && unpacked.parameters.isEmpty)
        entry.sequence = 7
        #expect(String(decoding: unpacked.bytes, as: UTF8.self) == String(decoding: entry.bytes, as: UTF8.self))
    }

    @Test func aFilterReadsTheMembersItNeedsWithoutUnpacking() {
        var entry = JournalEntry(time: 0, wallTime: 0, method: "POST", path: "/api/v1/signals", endpoint: "signal.publish",
                                 headers: HTTPHeaders([("x-nonce", "n")]), session: "s1", user: 7, status: 429, verdict: .invalid)
        entry.sequence = 3
        let packed = PackedEntry(entry)
        let admitted: [JournalFilter] = [JournalFilter(), JournalFilter(session: "s1"), JournalFilter(user: 7), JournalFilter(endpoint: "signal.*"),
                                         JournalFilter(endpoint: "signal.publish"), JournalFilter(status: .hundreds(4)), JournalFilter(status: .exactly(429)),
                                         JournalFilter(verdict: .invalid), JournalFilter(session: "s1", user: 7, endpoint: "signal.*", status: .hundreds(4), verdict: .invalid)]
        let refused: [JournalFilter] = [JournalFilter(session: "s2"), JournalFilter(user: 8), JournalFilter(endpoint: "signal.inbox"), JournalFilter(endpoint: "auth.*"),
                                        JournalFilter(status: .hundreds(2)), JournalFilter(status: .exactly(428)), JournalFilter(verdict: .ok)]
        #expect(admitted.allSatisfy { packed.isAdmitted(by: $0) && $0.admits(entry) })
        #expect(refused.allSatisfy { !packed.isAdmitted(by: $0) && !$0.admits(entry) })
    }
}
