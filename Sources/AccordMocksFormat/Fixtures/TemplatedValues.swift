import AccordContract
import AccordDiagnostics
import AccordJSON
import AccordValidation

/// Checks values written in mock files that may hold templates (fixture data, stream
/// events, collection seeds): the templates must compile, and the value must fit its
/// schema wherever no template stands; a templated string (or what is inside one) is
/// left to the rendered value.
package struct TemplatedValues: Sendable {
    package let validator: SchemaValidator
    package let contract: Contract

    package init(contract: Contract) {
        self.contract = contract
        validator = SchemaValidator(contract: contract, unknownMembers: .reject)
    }

    /// Warns where a hole that is one request value (`'{{request.body.name}}'`, a query or
    /// path parameter) fills a place the contract holds to more than the request does: a
    /// `min_length: 2` member filled from a body member of any length, a pattern or enum
    /// the request need not meet, a narrower range. A `when` matcher on the same request
    /// value (`narrowed`, as `body:/name`, `query:name`, `params:name`) is taken to narrow it.
    package func checkHoles(_ data: SourcedJSON, against schema: Schema, endpoint: Endpoint, narrowed: Set<String>, what: String,
                    reader: inout NodeReader) {
        for pointer in Self.templatedPointers(data.value, pointer: "") {
            guard case .string(let text)? = data.value.value(at: pointer), let expression = Self.soleExpression(text),
                  let target = JSONPointer(pointer).flatMap({ RecordShape.schema(at: $0, in: schema, contract: contract) }) else { continue }
            let source: Schema?
            let key: String
            switch expression {
            case .body(let bodyPointer):
                key = "body:" + bodyPointer
                source = endpoint.body.flatMap { body in JSONPointer(bodyPointer).flatMap { RecordShape.schema(at: $0, in: body, contract: contract) } }
            case .query(let name):
                key = "query:" + name
                source = endpoint.query.first { $0.name == name }?.schema
            case .pathParameter(let name):
                key = "params:" + name
                source = endpoint.parameters.first { $0.name == name }?.schema
            default:
                continue
            }
            guard let source, !narrowed.contains(key) else { continue }
            let place = pointer.isEmpty ? "the answer" : pointer
            for problem in looseness(of: source, filling: target) {
                reader.diagnostics.append(.warning("\(what) \(place): '\(text)' \(problem) (narrow it with a 'when' matcher, or a template of its own)",
                                                   at: data.location(of: pointer) ?? reader.location(of: data)))
            }
        }
    }

    /// How a value of `source` may break `target`, as phrases.
    private func looseness(of source: Schema, filling target: Schema) -> [String] {
        let (from, to) = (constraints(of: source), constraints(of: target))
        var problems: [String] = []
        if let minimum = to.minLength, minimum > (from.minLength ?? 0) {
            problems.append("may be shorter than the \(minimum) characters it needs; the request allows \(from.minLength.map { "\($0)" } ?? "any length")")
        }
        if let maximum = to.maxLength, maximum < (from.maxLength ?? .max) {
            problems.append("may be longer than the \(maximum) characters it allows; the request allows \(from.maxLength.map { "\($0)" } ?? "any length")")
        }
        if let pattern = to.pattern, from.pattern != pattern {
            problems.append("need not match /\(pattern)/")
        }
        if let minimum = to.minimum, minimum > (from.minimum ?? -.infinity) { problems.append("may be below its minimum \(NodeReader.format(minimum))") }
        if let maximum = to.maximum, maximum < (from.maximum ?? .infinity) { problems.append("may be above its maximum \(NodeReader.format(maximum))") }
        if case .enumeration(let allowed) = contract.resolvedKind(of: target) {
            let values = Set(allowed.cases.map(\.value))
            let fits = if case .enumeration(let sent) = contract.resolvedKind(of: source) { sent.cases.allSatisfy { values.contains($0.value) } } else { false }
            if !fits { problems.append("may be another value than \(allowed.cases.map(\.value.description).joined(separator: ", "))") }
        }
        return problems
    }

    /// A schema's constraints with those of the aliases it names (the nearer wins).
    private func constraints(of schema: Schema) -> Constraints {
        var merged = schema.constraints
        var current = schema
        for _ in 0..<16 {
            guard case .reference(let name) = current.kind, let declaration = contract.types[name] else { break }
            current = declaration.schema
            let more = current.constraints
            merged.minLength = merged.minLength ?? more.minLength
            merged.maxLength = merged.maxLength ?? more.maxLength
            merged.pattern = merged.pattern ?? more.pattern
            merged.minimum = merged.minimum ?? more.minimum
            merged.maximum = merged.maximum ?? more.maximum
        }
        return merged
    }

    /// The expression of a string that is exactly one `{{ … }}`.
    private static func soleExpression(_ text: String) -> TemplateExpression? {
        guard text.hasPrefix("{{"), text.hasSuffix("}}"), text.utf8.count > 4 else { return nil }
        let inner = String(text.dropFirst(2).dropLast(2))
        guard !inner.contains("{{"), !inner.contains("}}") else { return nil }
        return try? TemplateExpression(parsing: inner)
    }

    /// Compiles the templates and checks the value against `schema`, reporting each
    /// problem at its position.
    package func check(_ data: SourcedJSON, against schema: Schema, what: String, reader: inout NodeReader) {
        guard compileCheck(data, what: what, reader: &reader) else { return }
        let templated = Self.templatedPointers(data.value, pointer: "")
        let violations = validator.validate(data.value, against: schema)
        for violation in violations where !templated.contains(where: { violation.pointer.hasPrefix($0) }) {
            let pointer = violation.pointer.isEmpty ? "" : " \(violation.pointer)"
            reader.error("\(what)\(pointer): \(violation.message)", at: data.location(of: violation.pointer) ?? reader.location(of: data))
        }
        if violations.count == Violation.limit {
            reader.error("\(what): the check stops at \(Violation.limit) problems: fix these and run it again to see any more",
                         at: reader.location(of: data))
        }
    }

    /// Compiles the templates; false (reported) when one does not.
    @discardableResult
    package func compileCheck(_ data: SourcedJSON, what: String, reader: inout NodeReader) -> Bool {
        do {
            _ = try CompiledJSON(data.value)
            return true
        } catch {
            reader.error("\(what) \(error.pointer.isEmpty ? "" : error.pointer + " ")template: \(error.message)",
                         at: data.location(of: error.pointer) ?? reader.location(of: data))
            return false
        }
    }

    private static func templatedPointers(_ value: JSONValue, pointer: String) -> [String] {
        switch value {
        case .string(let text) where text.contains("{{"): [pointer]
        case .array(let items): items.enumerated().flatMap { templatedPointers($0.element, pointer: "\(pointer)/\($0.offset)") }
        case .object(let members): members.flatMap { templatedPointers($0.value, pointer: "\(pointer)/\($0.key.jsonPointerEscaped)") }
        default: []
        }
    }
}
