import AccordDiagnostics
import AccordJSON

/// A JSON value written in a contract or fixture, with where each part of it was written.
public struct SourcedJSON: Sendable, Hashable {
    public var value: JSONValue
    /// Locations by JSON pointer (`""` is the whole value, `/items/0/id` a member).
    public var locations: [String: SourceLocation]

    public init(value: JSONValue, locations: [String: SourceLocation]) {
        self.value = value
        self.locations = locations
    }

    /// The location of the value at `pointer`, or of its nearest written ancestor.
    public func location(of pointer: String) -> SourceLocation? {
        var pointer = pointer
        while true {
            if let location = locations[pointer] { return location }
            guard let slash = pointer.lastIndex(of: "/") else { return nil }
            pointer = String(pointer[..<slash])
        }
    }
}
