import AccordContract

/// Which named types hold themselves by value, through a chain of members that are not
/// arrays or maps (`Thing.parent: Thing?`, `Tree.leaf: Leaf` and `Leaf.tree: Tree?`): a
/// Swift struct cannot, so such members are written `@AccordIndirect` (kept on the heap) and such
/// tagged unions `indirect`. Arrays and maps already keep their elements on the heap.
struct ValueCycles {
    /// The strongly connected group of each type on a cycle.
    private let group: [String: Int]

    init(types: [String: TypeDeclaration]) {
        let names = types.keys.sorted()
        var edges: [String: [String]] = [:]
        for name in names {
            edges[name] = Self.valueReferences(types[name]?.schema).filter { types[$0] != nil }.sorted()
        }
        group = Self.cyclicGroups(names: names, edges: edges)
    }

    /// Whether a member of the type `owner` (or of an object written inline in it) that
    /// holds `target` by value closes a cycle.
    func isIndirect(owner: String, target: String) -> Bool {
        guard let ownerGroup = group[owner] else { return false }
        return group[target] == ownerGroup
    }

    /// Whether `name` is on a cycle.
    func isCyclic(_ name: String) -> Bool {
        group[name] != nil
    }

    /// The named types `schema` holds by value: references, and those of inline objects and union shapes.
    static func valueReferences(_ schema: Schema?) -> Set<String> {
        guard let schema else { return [] }
        switch schema.kind {
        case .reference(let name): return [name]
        case .object(let fields): return fields.reduce(into: []) { $0.formUnion(valueReferences($1.schema)) }
        case .union(let union): return Set(union.cases.map(\.typeName))
        case .array, .map, .primitive, .enumeration: return []
        }
    }

    /// Tarjan's strongly connected components, without recursion (a chain of thousands of
    /// types must not exhaust the stack); only groups with a cycle are kept.
    private static func cyclicGroups(names: [String], edges: [String: [String]]) -> [String: Int] {
        var index: [String: Int] = [:], lowLink: [String: Int] = [:]
        var stack: [String] = [], onStack: Set<String> = []
        var groups: [String: Int] = [:]
        var counter = 0, groupCount = 0
        for root in names where index[root] == nil {
            // Each frame: a type and how many of its edges are done.
            var frames: [(name: String, next: Int)] = [(root, 0)]
            index[root] = counter; lowLink[root] = counter; counter += 1
            stack.append(root); onStack.insert(root)
            while let frame = frames.last {
                let successors = edges[frame.name] ?? []
                if frame.next < successors.count {
                    frames[frames.count - 1].next += 1
                    let successor = successors[frame.next]
                    if index[successor] == nil {
                        index[successor] = counter; lowLink[successor] = counter; counter += 1
                        stack.append(successor); onStack.insert(successor)
                        frames.append((successor, 0))
                    } else if onStack.contains(successor) {
                        lowLink[frame.name] = min(lowLink[frame.name] ?? 0, index[successor] ?? 0)
                    }
                    continue
                }
                frames.removeLast()
                if let parent = frames.last {
                    lowLink[parent.name] = min(lowLink[parent.name] ?? 0, lowLink[frame.name] ?? 0)
                }
                guard lowLink[frame.name] == index[frame.name] else { continue }
                var members: [String] = []
                while let member = stack.popLast() {
                    onStack.remove(member)
                    members.append(member)
                    if member == frame.name { break }
                }
                let selfLoop = (edges[frame.name] ?? []).contains(frame.name)
                guard members.count > 1 || selfLoop else { continue }
                for member in members { groups[member] = groupCount }
                groupCount += 1
            }
        }
        return groups
    }
}
