import Foundation

/// A name and value sent in the query or as a header.
public nonisolated struct QueryItem: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
