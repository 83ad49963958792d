/// A request's headers by lowercased name, repeated ones joined with `, `.
///
/// A request carries about ten headers and the engine looks up about as many, so a
/// linear scan over short names beats hashing them into a dictionary.
public struct HTTPHeaders: Sendable, Sequence {
    /// The headers in the order they came, names lowercased.
    public private(set) var fields: [(name: String, value: String)] = []
    /// One bit for each name's length and first byte seen so far: a name whose bit is clear
    /// is new, and is added without a scan for an earlier header to join (most are new).
    /// Looking a name up whose bit is clear answers nil at once (most absent headers).
    @usableFromInline private(set) var seen: UInt64 = 0

    /// The bit of `seen` a name sets.
    @usableFromInline @inline(__always)
    static func bit(_ name: String) -> UInt64 {
        1 << UInt64((name.utf8.count &+ Int(name.utf8.first ?? 0)) & 63)
    }

    /// Room for `capacity` headers, none added yet.
    public init(capacity: Int) {
        fields.reserveCapacity(capacity)
    }

    public init(_ headers: [(String, String)] = []) {
        fields.reserveCapacity(headers.count)
        for (name, value) in headers { add(name, value) }
    }

    /// The value of the header with this lowercased name.
    public subscript(lowercasedName: String) -> String? {
        @inlinable get {
            guard seen & Self.bit(lowercasedName) != 0 else { return nil }
            return fields.first { Self.same($0.name, lowercasedName) }?.value
        }
        set {
            fields.removeAll { $0.name == lowercasedName }
            if let newValue {
                fields.append((lowercasedName, newValue))
                seen |= Self.bit(lowercasedName)
            }
        }
    }

    /// Adds a header, joining it to an earlier one of the same name.
    public mutating func add(_ name: String, _ value: String) {
        add(lowercasedName: ASCII.lowercased(name), value)
    }

    /// Adds a header whose name is already lowercased, joining it to an earlier one of
    /// the same name.
    public mutating func add(lowercasedName name: String, _ value: String) {
        let bit = Self.bit(name)
        if seen & bit != 0, let index = fields.firstIndex(where: { Self.same($0.name, name) }) {
            fields[index].value += ", " + value
        } else {
            fields.append((name, value))
            seen |= bit
        }
    }

    /// Equal names; the lengths are compared first, which settles most pairs without
    /// the general string comparison.
    @inlinable @inline(__always)
    public static func same(_ name: String, _ other: String) -> Bool {
        name.utf8.count == other.utf8.count && name == other
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }
}
