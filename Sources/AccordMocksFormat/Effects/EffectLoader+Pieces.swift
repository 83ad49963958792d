import AccordContract
import AccordDiagnostics
import AccordJSON
import AccordYAML

extension EffectLoader {
    // MARK: Pieces

    package func collection(_ node: Node, reader: inout NodeReader) -> CollectionDefinition? {
        guard let name = reader.text(node, "a collection name") else { return nil }
        guard let definition = collections[name] else {
            let names = collections.keys.sorted()
            reader.error("unknown collection '\(name)'\(NameSuggestion.hint(for: name, in: names))"
                         + (names.isEmpty ? "; declare it in mocks/collections/\(name).yaml" : "; declared: \(names.joined(separator: ", "))"), at: node)
            return nil
        }
        return definition
    }

    package func schema(of definition: CollectionDefinition) -> Schema {
        Schema(.reference(definition.typeName), location: definition.location)
    }

    package func sampleRecord(_ definition: CollectionDefinition) -> JSONValue {
        ResponseGenerator(types: contract.types).value(for: schema(of: definition))
    }

    package func filter(_ node: Node, type: Schema, of definition: CollectionDefinition, reader: inout NodeReader) -> RecordFilter {
        var filter = RecordFilter()
        for pair in reader.mapping(node, "'where'") ?? [] {
            guard let pointer = member(pair.key, type: type, of: definition, reader: &reader) else { continue }
            var comparison = RecordFilter.Comparison.equals
            var valueNode = pair.value
            if let pairs = pair.value.mapping {
                let names = RecordFilter.Comparison.allCases.dropFirst().map(\.rawValue)
                guard pairs.count == 1, let name = pairs[0].key.scalar?.value, let named = RecordFilter.Comparison(rawValue: name), named != .equals else {
                    reader.error("a condition is a value or one of {not: …}, {min: …}, {max: …}"
                                 + NameSuggestion.hint(for: pairs.first?.key.scalar?.value ?? "", in: names), at: pair.value)
                    continue
                }
                (comparison, valueNode) = (named, pairs[0].value)
            }
            guard let value = compiled(valueNode, what: "'where \(pointer)'", reader: &reader) else { continue }
            filter.conditions.append(.init(pointer: pointer, comparison: comparison, value: value))
        }
        return filter
    }

    /// A member of the collection's type named by `node`: `/sender/uid` or `status`.
    package func member(_ node: Node, type: Schema, of definition: CollectionDefinition, reader: inout NodeReader) -> JSONPointer? {
        guard let text = reader.text(node, "a member") else { return nil }
        return memberPointer(text, at: node, type: type, of: definition, reader: &reader)
    }

    package func memberPointer(_ text: String, at node: Node, type: Schema, of definition: CollectionDefinition,
                               reader: inout NodeReader) -> JSONPointer? {
        guard let pointer = JSONPointer(text.hasPrefix("/") ? text : "/" + text.jsonPointerEscaped), !pointer.tokens.isEmpty else {
            reader.error("expected a member of '\(definition.typeName)' such as /status, found '\(text)'", at: node)
            return nil
        }
        guard RecordShape.schema(at: pointer, in: type, contract: contract) != nil else {
            var known = JSONPointer(tokens: [])
            for token in pointer.tokens.dropLast() {
                let next = JSONPointer(tokens: known.tokens + [token])
                guard RecordShape.schema(at: next, in: type, contract: contract) != nil else { break }
                known = next
            }
            let names = RecordShape.schema(at: known, in: type, contract: contract).map { RecordShape.memberNames(of: $0, contract: contract) } ?? []
            let last = pointer.tokens[known.tokens.count]
            reader.error("'\(definition.typeName)' (collection '\(definition.name)') has no member '\(pointer)'\(NameSuggestion.hint(for: last, in: names))",
                         at: node)
            return nil
        }
        return pointer
    }

    package func compiled(_ node: Node, what: String, reader: inout NodeReader) -> TemplatedJSON? {
        let sourced = reader.json(node)
        guard values.compileCheck(sourced, what: what, reader: &reader) else { return nil }
        return try? TemplatedJSON(sourced.value)
    }

    /// The code for a missing record: the one written, else the endpoint's declared
    /// not-found code.
    package func missingCode(_ node: Node?, endpoint: Endpoint, at actionNode: Node, reader: inout NodeReader) -> Int? {
        if let node {
            guard let code = reader.int(node, "'missing'") else { return nil }
            guard contract.service.code(code) != nil, code != 0 else {
                reader.error("'missing': unknown business code \(code)", at: node)
                return nil
            }
            return code
        }
        if let code = endpoint.codes.first(where: { contract.service.code($0)?.name.hasSuffix("not-found") == true }) { return code }
        reader.error("'\(endpoint.id)' declares no not-found code; name the business code for a missing record with 'missing'", at: actionNode)
        return nil
    }

    /// The record an insert makes, with every body member the type declares standing in
    /// for the request, must fit the type.
    package func checkInsert(_ node: Node, definition: CollectionDefinition, endpoint: Endpoint, reader: inout NodeReader) {
        let record = node["record"].map { reader.json($0) }
        let defaults = node["defaults"].map { reader.json($0) }
        var value = defaults?.value ?? .object([])
        if let body = endpoint.body, case .object(let fields) = contract.resolvedKind(of: schema(of: definition)) {
            let names = Set(fields.map(\.name))
            if case .object(let members) = ResponseGenerator(types: contract.types).value(for: body) {
                value = RecordShape.overlay(.object(members.filter { names.contains($0.key) }), on: value)
            }
        }
        value = RecordShape.overlay(record?.value ?? .object([]), on: value)
        var locations = defaults?.locations ?? [:]
        locations.merge(record?.locations ?? [:]) { _, new in new }
        locations[""] = record?.locations[""] ?? reader.location(node)
        values.check(SourcedJSON(value: value, locations: locations), against: schema(of: definition),
                     what: "the record inserted into '\(definition.name)'", reader: &reader)
    }
}
