import AccordJSON
import AccordMockState
import AccordTesting
import Testing

/// The list memo's keys: a hit only for the same session, version, effect and filter
/// values, though its hash leaves out the text that is the same on every request of an
/// effect (its place and the filters' pointers); whole answers kept the same way.
@Suite struct ListMemoTests {
    static func key(session: String = "s_1", version: UInt64 = 3, asker: ListMemo.Asker = .list(place: "mocks/signals.yaml:12:7"),
                    pointer: String = "/status", text: String = "unread") -> ListMemo.Key {
        ListMemo.Key(session: session, collection: "signals", version: version, asker: asker,
                     values: [.query(pointer: JSONPointer(pointer)!, text: text)])
    }

    @Test func onlyAnEqualKeyIsAHit() {
        let memo = ListMemo()
        #expect(memo.count(for: Self.key()) { 1 } == 1)
        #expect(memo.count(for: Self.key()) { 99 } == 1, "the same key is answered from the memo")
        let others: [ListMemo.Key] = [
            Self.key(session: "s_2"), Self.key(version: 4), Self.key(text: "read"),
            Self.key(asker: .list(place: "mocks/signals.yaml:30:7")), Self.key(pointer: "/kind"),
            Self.key(asker: .count(index: 0, place: "mocks/signals.yaml:12:7")),
        ]
        for (index, other) in others.enumerated() {
            #expect(memo.count(for: other) { 10 + index } == 10 + index, "\(other) is another list")
        }
        #expect(memo.count(for: Self.key()) { 99 } == 1)
    }

    static func answerKey(version: UInt64 = 3, endpoint: String = "signal.inbox", fixture: String = "fixture:first-page",
                          parts: [ListMemo.Part] = [.version(7), .parameter("c1.x"), .parameter(nil)]) -> ListMemo.Key {
        ListMemo.Key(session: "s_1", collection: "signals", version: version, asker: .answer(endpoint: endpoint, fixture: fixture), values: parts)
    }

    @Test func aWholeAnswerIsKeptForItsKeyAlone() {
        let memo = ListMemo()
        #expect(memo.body(for: Self.answerKey()) { [1] } == [1])
        #expect(memo.body(for: Self.answerKey()) { [99] } == [1], "the same key is answered from the memo")
        let others: [ListMemo.Key] = [
            Self.answerKey(version: 4), Self.answerKey(endpoint: "signal.mine"), Self.answerKey(fixture: "fixture:unread"),
            Self.answerKey(parts: [.version(8), .parameter("c1.x"), .parameter(nil)]),
            Self.answerKey(parts: [.version(7), .parameter("c1.y"), .parameter(nil)]),
            Self.answerKey(parts: [.version(7), .parameter("c1.x"), .parameter("")]),
            Self.answerKey(parts: [.version(7), .parameter("c1.x")]),
        ]
        for (index, other) in others.enumerated() {
            #expect(memo.body(for: other) { [UInt8(10 + index)] } == [UInt8(10 + index)], "\(other) is another answer")
        }
        #expect(memo.body(for: Self.answerKey()) { [99] } == [1])
        // An answer and a list of the same session and version are not each other's.
        #expect(memo.count(for: Self.key()) { 5 } == 5)
    }

    @Test func whatThrowsAndWhatIsTooLargeIsNotKept() throws {
        struct Refused: Error {}
        let memo = ListMemo()
        #expect(throws: Refused.self) { try memo.body(for: Self.answerKey()) { () throws(Refused) -> [UInt8] in throw Refused() } }
        #expect(memo.body(for: Self.answerKey()) { [2] } == [2])
        let huge = [UInt8](repeating: 0, count: ListMemo.bodyByteLimit)
        let key = Self.answerKey(version: 9)
        #expect(memo.body(for: key) { huge }.count == huge.count)
        #expect(memo.body(for: key) { [3] } == [3], "an answer over the limit is made again")
        #expect(memo.body(for: Self.answerKey()) { [99] } == [2], "and did not empty the memo")
    }

    /// docs/mocks.md states the memo's bounds.
    @Test func theDocumentStatesTheBounds() throws {
        let page = try Repository.document("docs/mocks.md").replacingOccurrences(of: "\n  ", with: " ")
        #expect(ListMemo.rowLimit == 250_000 && page.contains("At most 250,000 rows,"))
        #expect(ListMemo.bodyByteLimit == 16 << 20 && page.contains(" 16 MiB of answers and"))
        #expect(ListMemo.entryLimit == 10_000 && page.contains("10,000 lists, counts and answers are kept"))
    }
}
