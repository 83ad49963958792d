import AccordContract
import AccordHTTP
import AccordJSON
import AccordMocksFormat

// How the mocks format's templates fill in for one request: the engine's half of
// ``CompiledJSON``, ``TemplatedJSON``, ``RecordFilter`` and ``CollectionDefinition``.

extension CompiledJSON {
    /// Renders the document for one request.
    public func render(_ context: TemplateContext) throws(StorageError) -> [UInt8] {
        if pieces.count == 1, case .bytes(let bytes) = pieces[0] { return bytes }
        var output: [UInt8] = []
        output.reserveCapacity(512)
        for piece in pieces {
            switch piece {
            case .bytes(let bytes): output += bytes
            case .value(let expression): JSONWriter.write(try context.value(of: expression), into: &output)
            case .string(let parts):
                JSONWriter.writeString(try Self.text(of: parts, context), into: &output)
            }
        }
        return output
    }

    /// A string with holes, filled for one request.
    package static func text(of parts: [StringPart], _ context: TemplateContext) throws(StorageError) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .text(let literal): text += literal
            case .expression(let expression): text += InterpolatedText.text(of: try context.value(of: expression))
            }
        }
        return text
    }
}

extension TemplatedJSON {
    /// The value for one request.
    package func render(_ context: TemplateContext) throws(StorageError) -> JSONValue {
        switch self {
        case .literal(let value): value
        case .expression(let expression): try context.value(of: expression)
        case .text(let parts): .string(try CompiledJSON.text(of: parts, context))
        case .array(let items): .array(try items.map { item throws(StorageError) in try item.render(context) })
        case .object(let members): .object(try members.map { member throws(StorageError) in .init(member.key, try member.value.render(context)) })
        }
    }
}

extension RecordFilter {
    /// The filter with its templates rendered for one request.
    package func bound(_ context: TemplateContext) throws(StorageError) -> BoundRecordFilter {
        BoundRecordFilter(conditions: try conditions.map { condition throws(StorageError) in
            let value = try condition.value.render(context)
            return .init(pointer: condition.pointer, comparison: condition.comparison, value: value, text: InterpolatedText.text(of: value))
        })
    }
}

extension CollectionDefinition {
    /// The seeds rendered for a session starting now: fresh ids, relative dates; the
    /// rendering of the last session seeded at the same time when they vary only with it
    /// (``RenderedSeeds``).
    package func renderSeeds(state: MockState) throws(StorageError) -> [JSONValue] {
        let now = try state.clock.now
        return try renderedSeeds.records(of: seeds, at: now) { () throws(StorageError) in
            let context = TemplateContext(request: MockRequest(method: "GET", target: "/"), parameters: [:], body: nil, now: now, state: state)
            return try seeds.map { seed throws(StorageError) in try seed.render(context) }
        }
    }
}

/// A ``RecordFilter`` rendered for one request.
package struct BoundRecordFilter {
    package struct Condition {
        package var pointer: JSONPointer
        package var comparison: RecordFilter.Comparison
        package var value: JSONValue
        package var text: String
    }

    package var conditions: [Condition]

    /// The conditions with their values, for ``ListMemo`` keys.
    package var memoParts: [ListMemo.Part] {
        conditions.map { .condition(pointer: $0.pointer, comparison: $0.comparison, value: $0.value) }
    }

    package func accepts(_ record: JSONValue) -> Bool {
        conditions.allSatisfy { condition in
            let member = condition.pointer.value(in: record)
            switch condition.comparison {
            case .equals: return member.map { Self.same($0, condition) } ?? false
            case .not: return !(member.map { Self.same($0, condition) } ?? false)
            case .min: return member.map { RecordShape.ascending($0, condition.value) >= 0 } ?? false
            case .max: return member.map { RecordShape.ascending($0, condition.value) <= 0 } ?? false
            }
        }
    }

    /// Equal as text, like matchers (`20031` equals `"20031"`); values of the same kind
    /// compare directly, without making text.
    private static func same(_ member: JSONValue, _ condition: Condition) -> Bool {
        switch (member, condition.value) {
        case (.string(let a), .string(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        default: InterpolatedText.text(of: member) == condition.text
        }
    }
}
