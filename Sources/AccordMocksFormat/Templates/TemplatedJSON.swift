import AccordJSON

/// A JSON value with `{{ … }}` holes that renders to a value rather than to bytes: for
/// what effects compare and store (records, filters, keys), where ``CompiledJSON``'s
/// bytes would only be read back. The parts without holes are kept as they are.
///
/// As in ``CompiledJSON``, a string that is exactly one expression takes the
/// expression's JSON type; any other string with holes stays a string.
package indirect enum TemplatedJSON: Sendable {
    case literal(JSONValue)
    case expression(TemplateExpression)
    case text([CompiledJSON.StringPart])
    case array([TemplatedJSON])
    case object([(key: String, value: TemplatedJSON)])

    /// Compiles `value`; a template that cannot be read throws with the JSON pointer of its string.
    package init(_ value: JSONValue) throws(CompiledJSON.TemplateError) {
        try self.init(value, pointer: "")
    }

    private init(_ value: JSONValue, pointer: String) throws(CompiledJSON.TemplateError) {
        switch value {
        case .string(let text) where text.contains("{{"):
            let parts = try CompiledJSON.parts(of: text, pointer: pointer)
            if parts.count == 1, case .expression(let expression) = parts[0] { self = .expression(expression) } else { self = .text(parts) }
        case .array(let items):
            var compiled: [TemplatedJSON] = []
            for (index, item) in items.enumerated() { compiled.append(try TemplatedJSON(item, pointer: "\(pointer)/\(index)")) }
            self = compiled.allSatisfy(\.isLiteral) ? .literal(value) : .array(compiled)
        case .object(let members):
            var compiled: [(key: String, value: TemplatedJSON)] = []
            for member in members {
                compiled.append((member.key, try TemplatedJSON(member.value, pointer: "\(pointer)/\(member.key.jsonPointerEscaped)")))
            }
            self = compiled.allSatisfy(\.value.isLiteral) ? .literal(value) : .object(compiled)
        default:
            self = .literal(value)
        }
    }

    /// Whether two renderings at the same mock time are equal: every hole reads the time
    /// (`now`, `timestamp`) and nothing else, no `uuid`, `seq`, `random` or state.
    package var variesOnlyWithTime: Bool {
        switch self {
        case .literal: true
        case .expression(let expression): expression.readsOnlyTheTime
        case .text(let parts): parts.allSatisfy { if case .expression(let expression) = $0 { expression.readsOnlyTheTime } else { true } }
        case .array(let items): items.allSatisfy(\.variesOnlyWithTime)
        case .object(let members): members.allSatisfy(\.value.variesOnlyWithTime)
        }
    }

    /// Whether a hole of the value is `expression`, at any depth.
    package func uses(_ expression: TemplateExpression) -> Bool {
        switch self {
        case .literal: false
        case .expression(let hole): hole == expression
        case .text(let parts): parts.contains { if case .expression(let hole) = $0 { hole == expression } else { false } }
        case .array(let items): items.contains { $0.uses(expression) }
        case .object(let members): members.contains { $0.value.uses(expression) }
        }
    }

    /// Whether the value holds no template: it renders the same for every request.
    package var isLiteral: Bool {
        if case .literal = self { return true }
        return false
    }
}

extension TemplateExpression {
    /// `now`, `now ± offset` or `timestamp`: the mock clock and nothing else.
    fileprivate var readsOnlyTheTime: Bool {
        switch self {
        case .now, .timestamp: true
        default: false
        }
    }
}
