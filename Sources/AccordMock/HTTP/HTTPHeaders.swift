/// A request's headers by lowercased name, repeated ones joined with `, `.
///
/// A request carries about ten headers and the engine looks up about as many, so a
/// linear scan over short names beats hashing them into a dictionary.
public struct HTTPHeaders: Sendable, Sequence {
    private var fields: [(name: String, value: String)] = []

    public init(_ headers: [(String, String)] = []) {
        fields.reserveCapacity(headers.count)
        for (name, value) in headers { add(name, value) }
    }

    /// The value of the header with this lowercased name.
    public subscript(lowercasedName: String) -> String? {
        get { fields.first { $0.name == lowercasedName }?.value }
        set {
            fields.removeAll { $0.name == lowercasedName }
            if let newValue { fields.append((lowercasedName, newValue)) }
        }
    }

    /// Adds a header, joining it to an earlier one of the same name.
    public mutating func add(_ name: String, _ value: String) {
        let key = ASCII.lowercased(name)
        if let index = fields.firstIndex(where: { $0.name == key }) {
            fields[index].value += ", " + value
        } else {
            fields.append((key, value))
        }
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }
}
