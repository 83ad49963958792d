import AccordSync

/// `{{seq}}` numbers a request's prelude reserved (`INCR PREFIX:seq` inside it) for an
/// answer that may take one, kept until a template takes them, smallest first. A request
/// whose answer took none leaves its number for the next, so none is skipped while the
/// replica runs; one replica's numbers rise, and numbers are unique across replicas.
final class ParkedSequences: Sendable {
    private let numbers = Locked<[Int]>([])

    var isEmpty: Bool { numbers.withLock { $0.isEmpty } }

    func park(_ number: Int) {
        numbers.withLock { $0.append(number) }
    }

    /// The smallest number kept, or nil for none.
    func take() -> Int? {
        numbers.withLock { numbers in
            guard let index = numbers.indices.min(by: { numbers[$0] < numbers[$1] }) else { return nil }
            return numbers.remove(at: index)
        }
    }
}
