import AccordDiagnostics
import AccordJSON
import AccordYAML

/// Reads the nodes of one YAML file (a contract or a fixture file) into values,
/// collecting a located diagnostic for every problem instead of stopping at the first.
public struct NodeReader: Sendable {
    public let document: YAMLDocument
    public var diagnostics: [Diagnostic] = []

    public init(document: YAMLDocument) {
        self.document = document
    }

    public var file: String { document.file }

    public func location(_ node: Node) -> SourceLocation {
        document.location(node.mark)
    }

    public mutating func error(_ message: String, at node: Node) {
        diagnostics.append(.error(message, at: location(node)))
    }

    public mutating func error(_ message: String, at location: SourceLocation) {
        diagnostics.append(.error(message, at: location))
    }

    // MARK: Shapes

    /// The pairs of a mapping, or nil (and an error) for any other node.
    public mutating func mapping(_ node: Node, _ what: String) -> [Node.Pair]? {
        guard let pairs = node.mapping else {
            error("expected a mapping for \(what), found \(node.kindDescription)", at: node)
            return nil
        }
        return pairs
    }

    /// The items of a sequence, or nil (and an error).
    public mutating func sequence(_ node: Node, _ what: String) -> [Node]? {
        guard let items = node.sequence else {
            error("expected a sequence for \(what), found \(node.kindDescription)", at: node)
            return nil
        }
        return items
    }

    /// A scalar's text (any non-null scalar reads as text), or nil (and an error).
    public mutating func text(_ node: Node, _ what: String) -> String? {
        guard let scalar = node.scalar, scalar.resolved != .null else {
            error("expected text for \(what), found \(node.kindDescription)", at: node)
            return nil
        }
        return scalar.value
    }

    public mutating func int(_ node: Node, _ what: String) -> Int? {
        guard case .int(let value)? = node.scalar?.resolved else {
            error("expected an integer for \(what), found \(node.kindDescription)", at: node)
            return nil
        }
        return value
    }

    public mutating func number(_ node: Node, _ what: String) -> Double? {
        switch node.scalar?.resolved {
        case .int(let value)?: return Double(value)
        case .double(let value)?: return value
        default:
            error("expected a number for \(what), found \(node.kindDescription)", at: node)
            return nil
        }
    }

    public mutating func bool(_ node: Node, _ what: String) -> Bool? {
        guard case .bool(let value)? = node.scalar?.resolved else {
            error("expected true or false for \(what), found \(node.kindDescription)", at: node)
            return nil
        }
        return value
    }

    /// A list of texts; a single scalar counts as a one-item list.
    public mutating func texts(_ node: Node, _ what: String) -> [String] {
        if node.scalar != nil { return text(node, what).map { [$0] } ?? [] }
        return (sequence(node, what) ?? []).compactMap { text($0, what) }
    }

    /// A duration such as `300s`, `10m`, `2h`, `30d` or a bare number of seconds.
    public mutating func seconds(_ node: Node, _ what: String) -> Int? {
        if case .int(let value)? = node.scalar?.resolved, value >= 0 { return value }
        if let text = node.scalar?.value, let value = DurationText.seconds(text), value >= 0 { return value }
        error("expected a duration for \(what) such as 300s, 10m, 2h or 30d, found \(node.kindDescription) '\(node.scalar?.value ?? "")'", at: node)
        return nil
    }

    /// The key's text; non-scalar keys are an error.
    public mutating func key(_ pair: Node.Pair, _ what: String) -> String? {
        guard let scalar = pair.key.scalar else {
            error("expected a plain key in \(what), found \(pair.key.kindDescription)", at: pair.key)
            return nil
        }
        return scalar.value
    }

    /// Reports every key of `pairs` not in `allowed`, suggesting the nearest allowed one;
    /// a key in `misplaced` is one that belongs elsewhere, reported with its explanation.
    public mutating func checkKeys(_ pairs: [Node.Pair], allowed: [String], in what: String, misplaced: [String: String] = [:]) {
        for pair in pairs {
            guard let name = pair.key.scalar?.value, !allowed.contains(name) else { continue }
            if let why = misplaced[name] {
                error("'\(name)' does not belong in \(what): \(why)", at: pair.key)
            } else {
                error("unknown key '\(name)' in \(what)\(NameSuggestion.hint(for: name, in: allowed))", at: pair.key)
            }
        }
    }

    // MARK: JSON values

    /// Converts a node to JSON under YAML 1.2's core schema, recording where each
    /// JSON pointer was written.
    public mutating func json(_ node: Node) -> SourcedJSON {
        var locations: [String: SourceLocation] = [:]
        let value = json(node, pointer: "", locations: &locations)
        return SourcedJSON(value: value, locations: locations)
    }

    private mutating func json(_ node: Node, pointer: String, locations: inout [String: SourceLocation]) -> JSONValue {
        locations[pointer] = location(node)
        switch node.content {
        case .scalar(let scalar):
            return scalar.json
        case .sequence(let items):
            return .array(items.enumerated().map { index, item in
                json(item, pointer: "\(pointer)/\(index)", locations: &locations)
            })
        case .mapping(let pairs):
            return .object(pairs.compactMap { pair in
                guard let key = key(pair, "a JSON object") else { return nil }
                return JSONValue.Member(key, json(pair.value, pointer: "\(pointer)/\(key.jsonPointerEscaped)", locations: &locations))
            })
        }
    }
}
