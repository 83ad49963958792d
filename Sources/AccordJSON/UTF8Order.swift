/// The order of strings by their UTF-8 bytes: the order canonical JSON and signatures
/// sort member names in (`String`'s own `<` compares Unicode scalars of normalized text).
public enum UTF8Order {
    /// Whether the UTF-8 bytes of `lhs` sort before those of `rhs`: the first byte that
    /// differs decides, or else the shorter comes first. Read where the bytes are, which
    /// costs a fraction of comparing the two `utf8` views element by element.
    @inlinable
    public static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        let order = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in precedes(left, right) }
        }
        return (order ?? nil) ?? lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    /// Whether `left` sorts before `right`, byte by byte.
    @inlinable
    static func precedes(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        for index in 0..<min(left.count, right.count) where left[index] != right[index] {
            return left[index] < right[index]
        }
        return left.count < right.count
    }
}
