import AccordJSON
import AccordMockState
import Testing

/// The list memo's keys: a hit only for the same session, version, effect and filter
/// values, though its hash leaves out the text that is the same on every request of an
/// effect (its place and the filters' pointers).
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
}
