import Foundation

/// The storage of a member that closes a cycle of types held by value (`parent: Thing?`
/// in `Thing`): the value on the heap, so the struct has a size. The generated property
/// reads and writes the value itself; equality and hashing are the value's.
public nonisolated struct AccordIndirect<Value: Hashable & Sendable>: Hashable, Sendable {
    private final class Box: Sendable {
        let value: Value

        init(_ value: Value) {
            self.value = value
        }
    }

    private let box: Box

    public init(_ value: Value) {
        box = Box(value)
    }

    public var value: Value { box.value }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.value == rhs.value
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }
}
