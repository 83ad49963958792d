/// Collects a mapping's pairs as their nodes arrive, applying `<<` merge keys and
/// reporting duplicate keys.
struct MappingBuilder {
    /// A problem with one key, reported and then ignored.
    struct Problem {
        var message: String
        var mark: Mark
    }

    private enum Entry {
        case explicit(Node.Pair)
        case merged([Node.Pair])
    }

    private var entries: [Entry] = []
    private var pendingKey: Node?
    private var explicitKeys: [String: Mark] = [:]

    /// Adds the next node: alternately a key and its value.
    mutating func add(_ node: Node) -> Problem? {
        guard let key = pendingKey else {
            pendingKey = node
            return nil
        }
        pendingKey = nil
        if let scalar = key.scalar, scalar.style == .plain, scalar.value == "<<" {
            return merge(node)
        }
        if let name = key.scalar?.value {
            if let first = explicitKeys[name] {
                return Problem(message: "duplicate key '\(name)' (first defined at \(first))", mark: key.mark)
            }
            explicitKeys[name] = key.mark
        }
        entries.append(.explicit(Node.Pair(key: key, value: node)))
        return nil
    }

    private mutating func merge(_ value: Node) -> Problem? {
        let sources: [Node]
        switch value.content {
        case .mapping: sources = [value]
        case .sequence(let items): sources = items
        case .scalar: sources = []
        }
        guard !sources.isEmpty, sources.allSatisfy({ $0.mapping != nil }) else {
            return Problem(message: "the value of a '<<' merge key must be a mapping or a sequence of mappings", mark: value.mark)
        }
        // Earlier sources win over later ones, as in YAML's merge-key spec.
        entries.append(.merged(sources.flatMap { $0.mapping ?? [] }))
        return nil
    }

    /// The pairs in written order; a merged pair appears where its `<<` stood,
    /// unless the mapping states that key itself.
    func finish() -> [Node.Pair] {
        var pairs: [Node.Pair] = []
        pairs.reserveCapacity(entries.count)
        var mergedKeys: Set<String> = []
        for entry in entries {
            switch entry {
            case .explicit(let pair):
                pairs.append(pair)
            case .merged(let merged):
                for pair in merged {
                    guard let name = pair.key.scalar?.value else { continue }
                    if explicitKeys[name] == nil, mergedKeys.insert(name).inserted {
                        pairs.append(pair)
                    }
                }
            }
        }
        return pairs
    }
}
