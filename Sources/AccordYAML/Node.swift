/// A YAML node with the position where it starts.
///
/// Aliases are resolved while the tree is built (an alias becomes a copy of its
/// anchored node, which copy-on-write keeps cheap) and `<<` merge keys are applied,
/// so consumers see plain scalars, sequences and mappings.
public struct Node: Sendable {
    /// What the node holds.
    public enum Content: Sendable {
        case scalar(Scalar)
        case sequence([Node])
        case mapping([Pair])
    }

    /// A key and its value in a mapping, in the order they were written.
    public struct Pair: Sendable {
        public var key: Node
        public var value: Node

        public init(key: Node, value: Node) {
            self.key = key
            self.value = value
        }
    }

    public var content: Content
    public var mark: Mark

    public init(_ content: Content, at mark: Mark) {
        self.content = content
        self.mark = mark
    }

    /// The scalar, if this node is one.
    public var scalar: Scalar? {
        if case .scalar(let scalar) = content { return scalar }
        return nil
    }

    /// The items, if this node is a sequence.
    public var sequence: [Node]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    /// The pairs, if this node is a mapping.
    public var mapping: [Pair]? {
        if case .mapping(let pairs) = content { return pairs }
        return nil
    }

    /// The value for a scalar key in a mapping, if both exist.
    public subscript(key: String) -> Node? {
        mapping?.first { $0.key.scalar?.value == key }?.value
    }

    /// A word for the kind of node, for messages: "a mapping", "a sequence", "a string".
    public var kindDescription: String {
        switch content {
        case .scalar(let scalar): scalar.resolved.kindDescription
        case .sequence: "a sequence"
        case .mapping: "a mapping"
        }
    }
}
