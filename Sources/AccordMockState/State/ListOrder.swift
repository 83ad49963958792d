import AccordJSON
import AccordMocksFormat

/// A list effect's order: by one member (ascending or descending), the key breaking
/// ties in the same direction; without a member, the records' own order.
package struct ListOrder {
    /// A record's place in the list.
    package struct Position {
        package var value: JSONValue
        package var key: String
    }

    package let pointer: JSONPointer?
    package let descending: Bool
    package let keyName: String

    package func position(of record: JSONValue) -> Position {
        Position(value: pointer.flatMap { $0.value(in: record) } ?? .null, key: Self.key(of: record, keyName))
    }

    /// Whether `a` comes before `b`.
    package func precedes(_ a: Position, _ b: Position) -> Bool {
        var order = RecordShape.ascending(a.value, b.value)
        if order == 0 { order = a.key < b.key ? -1 : (a.key == b.key ? 0 : 1) }
        return descending ? order > 0 : order < 0
    }

    /// `rows` in this order (without a member, as they are).
    package func sorted(_ rows: [(position: Position, record: JSONValue)]) -> [(position: Position, record: JSONValue)] {
        guard pointer != nil else { return rows }
        return rows.sorted { precedes($0.position, $1.position) }
    }

    /// The index of the first of `positions` (in this order) that satisfies `predicate`,
    /// which holds from some position on; `positions.count` if none.
    package func firstIndex<Positions: RandomAccessCollection<Position>>(in positions: Positions, where predicate: (Position) -> Bool) -> Int
    where Positions.Index == Int {
        var (low, high) = (positions.startIndex, positions.endIndex)
        while low < high {
            let middle = low + (high - low) / 2
            if predicate(positions[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The text of a record's key.
    package static func key(of record: JSONValue, _ keyName: String) -> String {
        record[keyName].map(InterpolatedText.text) ?? ""
    }
}
